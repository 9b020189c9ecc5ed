#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 3 "dim_order.okl"
static void transposeView(const int n, const int m, const double *S, double *T) {
#line 5 "dim_order.okl"
  for (int j = 0; j < m; ++j) {
    #pragma GCC ivdep
#line 6 "dim_order.okl"
    for (int i = 0; i < n; ++i) {
      T[j + m * i] = S[i + n * j];
    }
  }
}

#line 3 "dim_order.okl"
void _okl_entry_transposeView(void **args) {
  transposeView(*((const int *) args[0]), *((const int *) args[1]), (const double *) args[2], (double *) args[3]);
}
