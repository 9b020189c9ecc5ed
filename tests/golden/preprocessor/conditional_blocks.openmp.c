#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 5 "conditional_blocks.okl"
static void variants(const int nb, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 6 "conditional_blocks.okl"
  for (int b = 0; b < nb; ++b) {
#line 6 "conditional_blocks.okl"
    if (*_okl_stop)
      continue;
#line 7 "conditional_blocks.okl"
    float s[32];
    #pragma GCC ivdep
#line 8 "conditional_blocks.okl"
    for (int t = 0; t < 32; ++t) {
      s[t] = x[b * 32 + t];
    }
    #pragma GCC ivdep
#line 16 "conditional_blocks.okl"
    for (int t = 0; t < 32; ++t) {
      s[t] += s[31 - t];
    }
    #pragma GCC ivdep
    for (int t = 0; t < 32; ++t) {
#line 24 "conditional_blocks.okl"
      y[b * 32 + t] = s[t];
    }
  }
}

#line 5 "conditional_blocks.okl"
void _okl_entry_variants(void **args, volatile sig_atomic_t *stop) {
  variants(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
