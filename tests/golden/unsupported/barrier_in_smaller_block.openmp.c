#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "barrier_in_smaller_block.okl"
static void unevenBarrier(const int nb, const int m, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 5 "barrier_in_smaller_block.okl"
  for (int b = 0; b < nb; ++b) {
#line 5 "barrier_in_smaller_block.okl"
    if (*_okl_stop)
      continue;
#line 6 "barrier_in_smaller_block.okl"
    float s[64];
    #pragma GCC ivdep
#line 7 "barrier_in_smaller_block.okl"
    for (int t = 0; t < 64; ++t) {
      s[t] = x[b * 64 + t];
    }
#line 11 "barrier_in_smaller_block.okl"
    float v[(m > 0) ? (m) : (1)];
    #pragma GCC ivdep
#line 10 "barrier_in_smaller_block.okl"
    for (int t = 0; t < m; ++t) {
      v[t] = s[63 - t];
    }
    #pragma GCC ivdep
#line 10 "barrier_in_smaller_block.okl"
    for (int t = 0; t < m; ++t) {
#line 13 "barrier_in_smaller_block.okl"
      s[t] = v[t];
    }
    #pragma GCC ivdep
#line 15 "barrier_in_smaller_block.okl"
    for (int t = 0; t < 64; ++t) {
      y[b * 64 + t] = s[t];
    }
  }
}

#line 4 "barrier_in_smaller_block.okl"
void _okl_entry_unevenBarrier(void **args, volatile sig_atomic_t *stop) {
  unevenBarrier(*((const int *) args[0]), *((const int *) args[1]), (const float *) args[2], (float *) args[3], stop);
}
