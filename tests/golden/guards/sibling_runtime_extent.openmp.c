#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 4 "sibling_runtime_extent.okl"
static void mixed(const int nb, const int m, const float *x, float *y, float *z) {
  #pragma omp parallel for
#line 5 "sibling_runtime_extent.okl"
  for (int b = 0; b < nb; ++b) {
    #pragma GCC ivdep
#line 6 "sibling_runtime_extent.okl"
    for (int t = 0; t < 32; ++t) {
      y[b * 32 + t] = x[b * 32 + t];
    }
    #pragma GCC ivdep
#line 9 "sibling_runtime_extent.okl"
    for (int t = 0; t < m; ++t) {
      z[b * m + t] = 0.0f;
    }
  }
}

#line 4 "sibling_runtime_extent.okl"
void _okl_entry_mixed(void **args) {
  mixed(*((const int *) args[0]), *((const int *) args[1]), (const float *) args[2], (float *) args[3], (float *) args[4]);
}
