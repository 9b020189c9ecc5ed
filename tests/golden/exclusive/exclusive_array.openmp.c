#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "exclusive_array.okl"
static void registerArray(const int ne, const double *q, double *out, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ne)
#line 5 "exclusive_array.okl"
  for (int e = 0; e < ne; ++e) {
#line 5 "exclusive_array.okl"
    if (*_okl_stop)
      continue;
#line 6 "exclusive_array.okl"
    double r_q[6][6];
    #pragma GCC ivdep
#line 7 "exclusive_array.okl"
    for (int i = 0; i < 6; ++i) {
      for (int k = 0; k < 6; ++k) {
        r_q[k][i] = q[(e * 6 + k) * 6 + i];
      }
    }
    #pragma GCC ivdep
#line 12 "exclusive_array.okl"
    for (int i = 0; i < 6; ++i) {
      double s = 0.0;
      for (int k = 0; k < 6; ++k) s += r_q[k][i] * (k + 1);
      out[e * 6 + i] = s;
    }
  }
}

#line 4 "exclusive_array.okl"
void _okl_entry_registerArray(void **args, volatile sig_atomic_t *stop) {
  registerArray(*((const int *) args[0]), (const double *) args[1], (double *) args[2], stop);
}
