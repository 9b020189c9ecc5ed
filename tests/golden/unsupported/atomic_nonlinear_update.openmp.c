#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "atomic_nonlinear_update.okl"
static void doubling(const int n, int *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 4 "atomic_nonlinear_update.okl"
  for (int b = 0; b < n; ++b) {
#line 4 "atomic_nonlinear_update.okl"
    if (*_okl_stop)
      continue;
#line 5 "atomic_nonlinear_update.okl"
    for (int t = 0; t < 4; ++t) {
      {
        #pragma omp critical
        {
#line 6 "atomic_nonlinear_update.okl"
          x[0] = 2 * x[0] + 1;
        }
      }
    }
  }
}

#line 3 "atomic_nonlinear_update.okl"
void _okl_entry_doubling(void **args, volatile sig_atomic_t *stop) {
  doubling(*((const int *) args[0]), (int *) args[1], stop);
}
