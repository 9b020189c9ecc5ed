#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdlib.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "float_abs.okl"
static double spread(const double a, const double b) {
#line 2 "float_abs.okl"
  return fabs(a - b);
}

#line 4 "float_abs.okl"
static void weights(const int n, const double *y, const float *tol, double *w, int *k, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for simd if(parallel: 1 < n)
#line 5 "float_abs.okl"
  for (int i = 0; i < n; ++i) {
    const double denom = 1e-3 * fabs(y[i]) + fabs(tol[i % 4]) + spread(y[i], 0.5);
    w[i] = 1.0 / denom;
    k[i] = abs(i - 3);
  }
}

#line 4 "float_abs.okl"
void _okl_entry_weights(void **args, volatile sig_atomic_t *stop) {
  weights(*((const int *) args[0]), (const double *) args[1], (const float *) args[2], (double *) args[3], (int *) args[4], stop);
}
