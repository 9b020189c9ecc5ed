#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "barrier_local_global.okl"
static void legacyBarriers(const int nb, const double *x, double *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 4 "barrier_local_global.okl"
  for (int b = 0; b < nb; ++b) {
#line 4 "barrier_local_global.okl"
    if (*_okl_stop)
      continue;
#line 5 "barrier_local_global.okl"
    double s[8];
    #pragma GCC ivdep
#line 6 "barrier_local_global.okl"
    for (int t = 0; t < 8; ++t) {
      s[t] = x[b * 8 + t];
    }
    #pragma GCC ivdep
    for (int t = 0; t < 8; ++t) {
      y[b * 8 + t] = s[7 - t];
    }
    #pragma GCC ivdep
    for (int t = 0; t < 8; ++t) {
      s[t] = y[b * 8 + t] + 1.0;
    }
  }
}

#line 3 "barrier_local_global.okl"
void _okl_entry_legacyBarriers(void **args, volatile sig_atomic_t *stop) {
  legacyBarriers(*((const int *) args[0]), (const double *) args[1], (double *) args[2], stop);
}
