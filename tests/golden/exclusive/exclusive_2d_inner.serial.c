#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "exclusive_2d_inner.okl"
static void plane(const int nb, const float *x, float *y) {
  for (int b = 0; b < nb; ++b) {
    int _okl_exclusive_index = 0;
#line 4 "exclusive_2d_inner.okl"
    float r[32];
    _okl_exclusive_index = 0;
#line 5 "exclusive_2d_inner.okl"
    for (int j = 0; j < 4; ++j) {
      for (int i = 0; i < 8; ++i) {
        r[_okl_exclusive_index] = x[(b * 4 + j) * 8 + i];
        ++_okl_exclusive_index;
      }
    }
    _okl_exclusive_index = 0;
#line 10 "exclusive_2d_inner.okl"
    for (int j = 0; j < 4; ++j) {
      for (int i = 0; i < 8; ++i) {
        y[(b * 4 + j) * 8 + i] = r[_okl_exclusive_index] + j;
        ++_okl_exclusive_index;
      }
    }
  }
}

#line 2 "exclusive_2d_inner.okl"
void _okl_entry_plane(void **args) {
  plane(*((const int *) args[0]), (const float *) args[1], (float *) args[2]);
}
