#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "multiply.okl"
static void product(const int n, const double *x, double *p) {
  #pragma omp parallel for
#line 3 "multiply.okl"
  for (int b = 0; b < n; ++b) {
    for (int t = 0; t < 8; ++t) {
      {
        #pragma omp atomic
#line 5 "multiply.okl"
        p[0] *= x[b * 8 + t];
      }
    }
  }
}

#line 2 "multiply.okl"
void _okl_entry_product(void **args) {
  product(*((const int *) args[0]), (const double *) args[1], (double *) args[2]);
}
