#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "host_branches.okl"
static void chooser(const int n, const int mode, double *x, volatile sig_atomic_t *_okl_stop) {
  if (mode == 0) {
    #pragma omp parallel for if(parallel: 1 < n)
#line 4 "host_branches.okl"
    for (int b = 0; b < n; ++b) {
#line 4 "host_branches.okl"
      if (*_okl_stop)
        continue;
      #pragma GCC ivdep
#line 5 "host_branches.okl"
      for (int t = 0; t < 16; ++t) {
        x[b * 16 + t] = 0.0;
      }
    }
  } else {
    const double v = 1.0 / mode;
    #pragma omp parallel for if(parallel: 1 < n)
#line 11 "host_branches.okl"
    for (int b = 0; b < n; ++b) {
#line 11 "host_branches.okl"
      if (*_okl_stop)
        continue;
      #pragma GCC ivdep
#line 12 "host_branches.okl"
      for (int t = 0; t < 16; ++t) {
        x[b * 16 + t] = v;
      }
    }
  }
}

#line 2 "host_branches.okl"
void _okl_entry_chooser(void **args, volatile sig_atomic_t *stop) {
  chooser(*((const int *) args[0]), *((const int *) args[1]), (double *) args[2], stop);
}
