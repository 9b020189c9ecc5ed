#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
typedef struct __attribute__((aligned(8))) { float x, y; } float2;
static inline float2 make_float2(float x, float y) { float2 v = {x, y}; return v; }
typedef struct __attribute__((aligned(16))) { double x, y; } double2;
typedef struct __attribute__((aligned(16))) { double x, y, z, w; } double4;
static inline double4 make_double4(double x, double y, double z, double w) { double4 v = {x, y, z, w}; return v; }
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "blend.okl"
static void blend(const int n, const double4 *p, const float2 *w, const double2 scale, double4 *out, float2 *sums, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for simd if(parallel: 1 < n)
  for (int i = 0; i < n; ++i) {
    const double4 a = p[i];
    const float2 b = w[i];
    double4 r = make_double4(a.x * b.x, a.y * b.y, a.z + scale.x, a.w * scale.y);
    r.w += a.x;
    out[i] = r;
    sums[i] = make_float2(b.x + b.y, (float) (a.x + a.y + a.z + a.w));
  }
}

#line 3 "blend.okl"
void _okl_entry_blend(void **args, volatile sig_atomic_t *stop) {
  blend(*((const int *) args[0]), (const double4 *) args[1], (const float2 *) args[2], *((const double2 *) args[3]), (double4 *) args[4], (float2 *) args[5], stop);
}
