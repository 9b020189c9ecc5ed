#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "simd_length.okl"
static void simdHint(const int n, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 3 "simd_length.okl"
  for (int b = 0; b < n; ++b) {
#line 3 "simd_length.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 4 "simd_length.okl"
    for (int t = 0; t < 64; ++t) {
      y[b * 64 + t] = x[b * 64 + t] * x[b * 64 + t];
    }
  }
}

#line 2 "simd_length.okl"
void _okl_entry_simdHint(void **args, volatile sig_atomic_t *stop) {
  simdHint(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
