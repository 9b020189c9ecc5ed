#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "device_functions.okl"
static float square(float x);

inline static float clampf(const float x, const float lo, const float hi) {
  return (x < lo) ? (lo) : ((x > hi) ? (hi) : (x));
}

static float square(float x) {
  return x * x;
}

inline static float cube(const float x) {
  return x * square(x);
}

static float norm2(const float *v, const int n) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += square(v[k]);
  return s;
}

static void normalize(const int nv, const float *v, float *out, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nv)
#line 25 "device_functions.okl"
  for (int b = 0; b < nv; ++b) {
#line 25 "device_functions.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 26 "device_functions.okl"
    for (int t = 0; t < 3; ++t) {
      const float len = sqrtf(norm2(v + b * 3, 3));
      out[b * 3 + t] = clampf(v[b * 3 + t] / len, -1.0f, 1.0f) + 0.0f * cube(len);
    }
  }
}

#line 24 "device_functions.okl"
void _okl_entry_normalize(void **args, volatile sig_atomic_t *stop) {
  normalize(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
