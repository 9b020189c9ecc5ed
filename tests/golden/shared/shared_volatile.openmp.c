#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "shared_volatile.okl"
static void lastWarp(const int nb, const int *x, int *out, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 3 "shared_volatile.okl"
  for (int b = 0; b < nb; ++b) {
#line 3 "shared_volatile.okl"
    if (*_okl_stop)
      continue;
#line 4 "shared_volatile.okl"
    volatile int s[32];
    #pragma GCC ivdep
#line 5 "shared_volatile.okl"
    for (int t = 0; t < 32; ++t) {
      s[t] = x[b * 32 + t];
    }
    #pragma GCC ivdep
#line 8 "shared_volatile.okl"
    for (int t = 0; t < 1; ++t) {
#line 10 "shared_volatile.okl"
      int total = 0;
      for (int k = 0; k < 32; ++k) total += s[k];
      out[b] = total;
    }
  }
}

#line 2 "shared_volatile.okl"
void _okl_entry_lastWarp(void **args, volatile sig_atomic_t *stop) {
  lastWarp(*((const int *) args[0]), (const int *) args[1], (int *) args[2], stop);
}
