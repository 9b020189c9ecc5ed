#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "exclusive_scalar.okl"
static void keepValue(const int nb, const float *x, float *y) {
  for (int b = 0; b < nb; ++b) {
    int _okl_exclusive_index = 0;
#line 4 "exclusive_scalar.okl"
    float v[32];
    _okl_exclusive_index = 0;
#line 5 "exclusive_scalar.okl"
    for (int t = 0; t < 32; ++t) {
      v[_okl_exclusive_index] = x[b * 32 + t];
      ++_okl_exclusive_index;
    }
    _okl_exclusive_index = 0;
#line 8 "exclusive_scalar.okl"
    for (int t = 0; t < 32; ++t) {
      y[b * 32 + t] = v[_okl_exclusive_index] * v[_okl_exclusive_index];
      ++_okl_exclusive_index;
    }
  }
}

#line 2 "exclusive_scalar.okl"
void _okl_entry_keepValue(void **args) {
  keepValue(*((const int *) args[0]), (const float *) args[1], (float *) args[2]);
}
