#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
typedef struct __attribute__((aligned(2))) { signed char x, y; } char2;
typedef struct __attribute__((aligned(4))) { unsigned char x, y, z, w; } uchar4;
static inline uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z, unsigned char w) { uchar4 v = {x, y, z, w}; return v; }
typedef struct __attribute__((aligned(4))) { short x, y; } short2;
static inline short2 make_short2(short x, short y) { short2 v = {x, y}; return v; }
typedef struct { unsigned short x, y, z; } ushort3;
static inline ushort3 make_ushort3(unsigned short x, unsigned short y, unsigned short z) { ushort3 v = {x, y, z}; return v; }
typedef struct __attribute__((aligned(16))) { int x, y, z, w; } int4;
typedef struct __attribute__((aligned(8))) { unsigned int x, y; } uint2;
typedef struct __attribute__((aligned(16))) { unsigned long x, y; } ulong2;
static inline ulong2 make_ulong2(unsigned long x, unsigned long y) { ulong2 v = {x, y}; return v; }
typedef struct __attribute__((aligned(16))) { long long x, y; } longlong2;
typedef struct __attribute__((aligned(16))) { float x, y, z, w; } float4;
static inline float4 make_float4(float x, float y, float z, float w) { float4 v = {x, y, z, w}; return v; }
typedef struct __attribute__((aligned(16))) { double x, y; } double2;
static inline double2 make_double2(double x, double y) { double2 v = {x, y}; return v; }
typedef struct { double x, y, z; } double3;
static inline double3 make_double3(double x, double y, double z) { double3 v = {x, y, z}; return v; }
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 5 "declarations.okl"
static double2 rotate(const double2 v, const double c, const double s) {
  return make_double2(c * v.x - s * v.y, s * v.x + c * v.y);
}

static float dot4(const float4 a, const float4 *b) {
  return a.x * b->x + a.y * b->y + a.z * b->z + a.w * b->w;
}

static void declarations(const int n, const float4 *f, double2 *d, int4 *counts, uchar4 *rgba, const char2 *steps, short2 *pairs, const uint2 *keys, ulong2 *wide, longlong2 *ll, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < (((n + 16) - 1) / 16))
#line 16 "declarations.okl"
  for (int b = 0; b < (n + 16 - 1) / 16; ++b) {
#line 16 "declarations.okl"
    if (*_okl_stop)
      continue;
#line 17 "declarations.okl"
    float4 tile[16];
    double2 mine[16];
    #pragma GCC ivdep
#line 19 "declarations.okl"
    for (int t = 0; t < 16; ++t) {
      const int i = b * 16 + t;
      tile[t] = (i < n) ? (f[i]) : (make_float4(0.0f, 0.0f, 0.0f, 0.0f));
      mine[t] = (i < n) ? (d[i]) : (make_double2(0.0, 0.0));
    }
    #pragma GCC ivdep
#line 24 "declarations.okl"
    for (int t = 0; t < ((16 < n - b * 16) ? (16) : (n - b * 16)); ++t) {
      const int i = b * 16 + t;
      {
        const float4 next = tile[(t + 1) % 16];
        d[i] = rotate(mine[t], (double) dot4(next, &f[i]), 0.5);
        int4 c = counts[i];
        c.w = c.x + c.y + c.z;
        counts[i] = c;
        rgba[i] = make_uchar4(rgba[i].w, rgba[i].z, rgba[i].y, (unsigned char) steps[i].x);
        pairs[i] = make_short2(pairs[i].y, (short) steps[i].y);
        wide[i] = make_ulong2(keys[i].x, ((unsigned long) keys[i].y) << 32);
        ll[i].x = -ll[i].y;
        double3 p = make_double3(mine[t].x, mine[t].y, 1.0);
        p.z += p.x * p.y;
        ushort3 u = make_ushort3(1, 2, 3);
        ll[i].y = (long) (p.z + u.x + u.y + u.z);
      }
    }
  }
}

#line 13 "declarations.okl"
void _okl_entry_declarations(void **args, volatile sig_atomic_t *stop) {
  declarations(*((const int *) args[0]), (const float4 *) args[1], (double2 *) args[2], (int4 *) args[3], (uchar4 *) args[4], (const char2 *) args[5], (short2 *) args[6], (const uint2 *) args[7], (ulong2 *) args[8], (longlong2 *) args[9], stop);
}
