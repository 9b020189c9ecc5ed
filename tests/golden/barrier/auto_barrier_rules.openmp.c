#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "auto_barrier_rules.okl"
static void rules(const int nb, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 5 "auto_barrier_rules.okl"
  for (int b = 0; b < nb; ++b) {
#line 5 "auto_barrier_rules.okl"
    if (*_okl_stop)
      continue;
#line 6 "auto_barrier_rules.okl"
    float s[16];
    #pragma GCC ivdep
#line 7 "auto_barrier_rules.okl"
    for (int t = 0; t < 16; ++t) {
      s[t] = x[b * 16 + t];
    }
    #pragma GCC ivdep
#line 10 "auto_barrier_rules.okl"
    for (int t = 0; t < 16; ++t) {
      y[b * 16 + t] = 0.0f;
    }
    #pragma GCC ivdep
#line 13 "auto_barrier_rules.okl"
    for (int t = 0; t < 16; ++t) {
      y[b * 16 + t] = s[t] + s[15 - t];
    }
    #pragma GCC ivdep
    for (int t = 0; t < 16; ++t) {
      s[t] *= 2.0f;
    }
    #pragma GCC ivdep
#line 20 "auto_barrier_rules.okl"
    for (int t = 0; t < 16; ++t) {
      y[b * 16 + t] += s[t];
    }
  }
}

#line 4 "auto_barrier_rules.okl"
void _okl_entry_rules(void **args, volatile sig_atomic_t *stop) {
  rules(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
