#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "nobarrier.okl"
static void readTwice(const int nb, const float *x, float *y, float *z, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 4 "nobarrier.okl"
  for (int b = 0; b < nb; ++b) {
#line 4 "nobarrier.okl"
    if (*_okl_stop)
      continue;
#line 5 "nobarrier.okl"
    float s[64];
    #pragma GCC ivdep
#line 6 "nobarrier.okl"
    for (int t = 0; t < 64; ++t) {
      s[t] = x[b * 64 + t];
    }
    #pragma GCC ivdep
#line 9 "nobarrier.okl"
    for (int t = 0; t < 64; ++t) {
      y[b * 64 + t] = s[63 - t];
    }
    #pragma GCC ivdep
#line 12 "nobarrier.okl"
    for (int t = 0; t < 64; ++t) {
      z[b * 64 + t] = s[t] + s[(t + 1) % 64];
    }
  }
}

#line 3 "nobarrier.okl"
void _okl_entry_readTwice(void **args, volatile sig_atomic_t *stop) {
  readTwice(*((const int *) args[0]), (const float *) args[1], (float *) args[2], (float *) args[3], stop);
}
