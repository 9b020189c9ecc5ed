#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "multiple_declarators.okl"
static void manyNames(const int nb, const int *ids, float *x) {
  for (int b = 0; b < nb; ++b) {
    int _okl_exclusive_index = 0;
#line 4 "multiple_declarators.okl"
    int r_e[16];
#line 4 "multiple_declarators.okl"
    int r_pair[2][16];
    float *r_row[16];
    _okl_exclusive_index = 0;
#line 6 "multiple_declarators.okl"
    for (int t = 0; t < 16; ++t) {
      r_e[_okl_exclusive_index] = ids[b * 16 + t];
      r_pair[0][_okl_exclusive_index] = r_e[_okl_exclusive_index];
      r_pair[1][_okl_exclusive_index] = r_e[_okl_exclusive_index] + 1;
      r_row[_okl_exclusive_index] = x + r_e[_okl_exclusive_index] * 4;
      ++_okl_exclusive_index;
    }
    _okl_exclusive_index = 0;
#line 12 "multiple_declarators.okl"
    for (int t = 0; t < 16; ++t) {
      r_row[_okl_exclusive_index][0] = (float) (r_pair[0][_okl_exclusive_index] + r_pair[1][_okl_exclusive_index]);
      ++_okl_exclusive_index;
    }
  }
}

#line 2 "multiple_declarators.okl"
void _okl_entry_manyNames(void **args) {
  manyNames(*((const int *) args[0]), (const int *) args[1], (float *) args[2]);
}
