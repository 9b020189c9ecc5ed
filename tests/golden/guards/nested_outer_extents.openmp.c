#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 3 "nested_outer_extents.okl"
static void twoGrids(const int nz, const int na, const int nb2, float *a, float *b) {
  #pragma omp parallel for
#line 4 "nested_outer_extents.okl"
  for (int z = 0; z < nz; ++z) {
    for (int i = 0; i < na; ++i) {
      #pragma GCC ivdep
#line 6 "nested_outer_extents.okl"
      for (int t = 0; t < 16; ++t) {
        a[(z * na + i) * 16 + t] = 1.0f;
      }
    }
    for (int j = 0; j < nb2; ++j) {
      #pragma GCC ivdep
#line 11 "nested_outer_extents.okl"
      for (int t = 0; t < 16; ++t) {
        b[(z * nb2 + j) * 16 + t] = 2.0f;
      }
    }
  }
}

#line 3 "nested_outer_extents.okl"
void _okl_entry_twoGrids(void **args) {
  twoGrids(*((const int *) args[0]), *((const int *) args[1]), *((const int *) args[2]), (float *) args[3], (float *) args[4]);
}
