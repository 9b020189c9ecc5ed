#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "shared_1d.okl"
static void reverseBlocks(const int n, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < (n / 64))
#line 5 "shared_1d.okl"
  for (int b = 0; b < n / 64; ++b) {
#line 5 "shared_1d.okl"
    if (*_okl_stop)
      continue;
#line 6 "shared_1d.okl"
    float s[64];
    #pragma GCC ivdep
#line 7 "shared_1d.okl"
    for (int t = 0; t < 64; ++t) {
      s[t] = x[b * 64 + t];
    }
    #pragma GCC ivdep
#line 10 "shared_1d.okl"
    for (int t = 0; t < 64; ++t) {
      y[b * 64 + t] = s[64 - 1 - t];
    }
  }
}

#line 4 "shared_1d.okl"
void _okl_entry_reverseBlocks(void **args, volatile sig_atomic_t *stop) {
  reverseBlocks(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
