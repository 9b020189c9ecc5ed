#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "two_outer_loops.okl"
static void twoPasses(const int n, const float *x, float *y, float *z, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel if(parallel: 1 < n)
  {
    #pragma omp for
#line 3 "two_outer_loops.okl"
    for (int b = 0; b < n; ++b) {
#line 3 "two_outer_loops.okl"
      if (*_okl_stop)
        continue;
      #pragma GCC ivdep
#line 4 "two_outer_loops.okl"
      for (int t = 0; t < 32; ++t) {
        y[b * 32 + t] = 2.0f * x[b * 32 + t];
      }
    }
    #pragma omp for
#line 8 "two_outer_loops.okl"
    for (int b = 0; b < n; ++b) {
#line 8 "two_outer_loops.okl"
      if (*_okl_stop)
        continue;
      #pragma GCC ivdep
#line 9 "two_outer_loops.okl"
      for (int t = 0; t < 32; ++t) {
        z[b * 32 + t] = y[b * 32 + t] + y[(b + 1) % n * 32 + t];
      }
    }
  }
}

#line 2 "two_outer_loops.okl"
void _okl_entry_twoPasses(void **args, volatile sig_atomic_t *stop) {
  twoPasses(*((const int *) args[0]), (const float *) args[1], (float *) args[2], (float *) args[3], stop);
}
