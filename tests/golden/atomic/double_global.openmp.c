#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "double_global.okl"
static void doubleOps(const int n, const double *x, double *acc, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 3 "double_global.okl"
  for (int b = 0; b < n; ++b) {
#line 3 "double_global.okl"
    if (*_okl_stop)
      continue;
#line 4 "double_global.okl"
    for (int t = 0; t < 64; ++t) {
      const double v = x[b * 64 + t];
      {
        #pragma omp atomic
#line 6 "double_global.okl"
        acc[0] += v * v;
      }
      {
        #pragma omp atomic
#line 7 "double_global.okl"
        acc[1] -= v;
      }
      {
        #pragma omp atomic
#line 8 "double_global.okl"
        ++acc[2];
      }
      {
        #pragma omp atomic
#line 9 "double_global.okl"
        --acc[3];
      }
      {
        #pragma omp atomic write
#line 10 "double_global.okl"
        acc[4] = v;
      }
    }
  }
}

#line 2 "double_global.okl"
void _okl_entry_doubleOps(void **args, volatile sig_atomic_t *stop) {
  doubleOps(*((const int *) args[0]), (const double *) args[1], (double *) args[2], stop);
}
