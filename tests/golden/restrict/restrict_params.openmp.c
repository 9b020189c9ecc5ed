#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "restrict_params.okl"
static void triad(const int n, const double s, const double * restrict a, const double * restrict b, double * restrict c, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for simd if(parallel: 1 < n)
  for (int i = 0; i < n; ++i) {
    c[i] = a[i] + s * b[i];
  }
}

#line 3 "restrict_params.okl"
void _okl_entry_triad(void **args, volatile sig_atomic_t *stop) {
  triad(*((const int *) args[0]), *((const double *) args[1]), (const double *) args[2], (const double *) args[3], (double *) args[4], stop);
}
