#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "same_runtime_extent.okl"
static void sameExtent(const int nb, const int m, const float *x, float *y) {
  for (int b = 0; b < nb; ++b) {
    float s[256];
    #pragma GCC ivdep
#line 5 "same_runtime_extent.okl"
    for (int t = 0; t < m; ++t) {
      s[t] = x[b * m + t];
    }
    #pragma GCC ivdep
#line 8 "same_runtime_extent.okl"
    for (int t = 0; t < m; ++t) {
      y[b * m + t] = s[m - 1 - t];
    }
  }
}

#line 2 "same_runtime_extent.okl"
void _okl_entry_sameExtent(void **args) {
  sameExtent(*((const int *) args[0]), *((const int *) args[1]), (const float *) args[2], (float *) args[3]);
}
