#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 6 "pointer_locals.okl"
static double dot(const double *a, const double *b) {
  const double *p = b;
  double s = 0.0;
  for (int k = 0; k < 3; ++k) s += a[k] * p[k];
  return s;
}

static void combine(const int n, const double *coef, const double *hist, double *out, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for simd if(parallel: 1 < n)
#line 14 "pointer_locals.okl"
  for (int i = 0; i < n; ++i) {
    const double *rows[3];
    for (int s = 0; s < 3; ++s) rows[s] = hist + s * n;
    double v[3];
    for (int s = 0; s < 3; ++s) v[s] = rows[s][i];
    out[i] = dot(coef, v) + dot(coef, coef);
  }
}

#line 13 "pointer_locals.okl"
void _okl_entry_combine(void **args, volatile sig_atomic_t *stop) {
  combine(*((const int *) args[0]), (const double *) args[1], (const double *) args[2], (double *) args[3], stop);
}
