#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "simd_length.okl"
static void simdHint(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b) {
    #pragma GCC ivdep
#line 4 "simd_length.okl"
    for (int t = 0; t < 64; ++t) {
      y[b * 64 + t] = x[b * 64 + t] * x[b * 64 + t];
    }
  }
}

#line 2 "simd_length.okl"
void _okl_entry_simdHint(void **args) {
  simdHint(*((const int *) args[0]), (const float *) args[1], (float *) args[2]);
}
