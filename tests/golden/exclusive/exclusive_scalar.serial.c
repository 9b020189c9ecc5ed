#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "exclusive_scalar.okl"
static void keepValue(const int nb, const float *x, float *y) {
  for (int b = 0; b < nb; ++b) {
    float v[32];
    #pragma GCC ivdep
#line 5 "exclusive_scalar.okl"
    for (int t = 0; t < 32; ++t) {
      v[t] = x[b * 32 + t];
    }
    #pragma GCC ivdep
#line 8 "exclusive_scalar.okl"
    for (int t = 0; t < 32; ++t) {
      y[b * 32 + t] = v[t] * v[t];
    }
  }
}

#line 2 "exclusive_scalar.okl"
void _okl_entry_keepValue(void **args) {
  keepValue(*((const int *) args[0]), (const float *) args[1], (float *) args[2]);
}
