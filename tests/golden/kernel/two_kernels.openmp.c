#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "two_kernels.okl"
static void fill(const int n, const float value, float *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ((n + 63) / 64))
#line 3 "two_kernels.okl"
  for (int b = 0; b < (n + 63) / 64; ++b) {
#line 3 "two_kernels.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 4 "two_kernels.okl"
    for (int t = 0; t < ((64 < n - b * 64) ? (64) : (n - b * 64)); ++t) {
      const int i = b * 64 + t;
      x[i] = value;
    }
  }
}

#line 2 "two_kernels.okl"
void _okl_entry_fill(void **args, volatile sig_atomic_t *stop) {
  fill(*((const int *) args[0]), *((const float *) args[1]), (float *) args[2], stop);
}

#line 11 "two_kernels.okl"
static void scale(const int n, const float factor, float *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ((n + 127) / 128))
#line 12 "two_kernels.okl"
  for (int b = 0; b < (n + 127) / 128; ++b) {
#line 12 "two_kernels.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 13 "two_kernels.okl"
    for (int t = 0; t < ((128 < n - b * 128) ? (128) : (n - b * 128)); ++t) {
      const int i = b * 128 + t;
      x[i] *= factor;
    }
  }
}

#line 11 "two_kernels.okl"
void _okl_entry_scale(void **args, volatile sig_atomic_t *stop) {
  scale(*((const int *) args[0]), *((const float *) args[1]), (float *) args[2], stop);
}
