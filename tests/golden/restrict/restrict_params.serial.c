#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 3 "restrict_params.okl"
static void triad(const int n, const double s, const double * restrict a, const double * restrict b, double * restrict c) {
  #pragma GCC ivdep
  for (int i = 0; i < n; ++i) {
    c[i] = a[i] + s * b[i];
  }
}

#line 3 "restrict_params.okl"
void _okl_entry_triad(void **args) {
  triad(*((const int *) args[0]), *((const double *) args[1]), (const double *) args[2], (const double *) args[3], (double *) args[4]);
}
