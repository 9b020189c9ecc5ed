#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
#include <stdlib.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }
#define min(a, b) ({ __typeof__(a) _okl_a = (a); __typeof__(b) _okl_b = (b); _okl_a < _okl_b ? _okl_a : _okl_b; })
#define max(a, b) ({ __typeof__(a) _okl_a = (a); __typeof__(b) _okl_b = (b); _okl_a > _okl_b ? _okl_a : _okl_b; })

#line 3 "math_builtins.okl"
static void mathOps(const int n, const float *x, const double *y, float *fx, double *fy, int *k, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
  for (int b = 0; b < n; ++b) {
#line 5 "math_builtins.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 6 "math_builtins.okl"
    for (int t = 0; t < 32; ++t) {
      const int i = b * 32 + t;
      fx[i] = sqrtf(fabsf(x[i])) + expf(-x[i]) + sinf(x[i]) * cosf(x[i]) + powf(x[i], 2.0f) + fmaxf(x[i], 0.0f) + floorf(x[i]) + logf(1.0f + fabsf(x[i]));
#line 10 "math_builtins.okl"
      fy[i] = sqrt(fabs(y[i])) + exp(-y[i]) + tanh(y[i]) + pow(y[i], 3.0) + fmin(y[i], 1.0) + ceil(y[i]) + atan2(y[i], 2.0);
#line 12 "math_builtins.okl"
      fx[i] += min(x[i], 1.0f) + max(0.0f, rsqrtf(1.0f + x[i] * x[i]));
      k[i] = max(min(i, 7), t) + abs(t - 16);
    }
  }
}

#line 3 "math_builtins.okl"
void _okl_entry_mathOps(void **args, volatile sig_atomic_t *stop) {
  mathOps(*((const int *) args[0]), (const float *) args[1], (const double *) args[2], (float *) args[3], (double *) args[4], (int *) args[5], stop);
}
