#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "blocks_in_regular_loop.okl"
static void iterate(const int nb, const int steps, float *x) {
  #pragma omp parallel for
#line 3 "blocks_in_regular_loop.okl"
  for (int b = 0; b < nb; ++b) {
    int _okl_exclusive_index = 0;
#line 4 "blocks_in_regular_loop.okl"
    float r[16];
    _okl_exclusive_index = 0;
#line 5 "blocks_in_regular_loop.okl"
    for (int t = 0; t < 16; ++t) {
      r[_okl_exclusive_index] = x[b * 16 + t];
      ++_okl_exclusive_index;
    }
#line 8 "blocks_in_regular_loop.okl"
    for (int s = 0; s < steps; ++s) {
      _okl_exclusive_index = 0;
#line 9 "blocks_in_regular_loop.okl"
      for (int t = 0; t < 16; ++t) {
        r[_okl_exclusive_index] = 0.5f * r[_okl_exclusive_index] + 1.0f;
        ++_okl_exclusive_index;
      }
    }
    _okl_exclusive_index = 0;
#line 13 "blocks_in_regular_loop.okl"
    for (int t = 0; t < 16; ++t) {
      x[b * 16 + t] = r[_okl_exclusive_index];
      ++_okl_exclusive_index;
    }
  }
}

#line 2 "blocks_in_regular_loop.okl"
void _okl_entry_iterate(void **args) {
  iterate(*((const int *) args[0]), *((const int *) args[1]), (float *) args[2]);
}
