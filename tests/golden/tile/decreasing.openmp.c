#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "decreasing.okl"
static void downTiles(const int n, int *x) {
  #pragma omp parallel for
#line 3 "decreasing.okl"
  for (int _okl_tiled_i = n - 1; _okl_tiled_i >= 0; _okl_tiled_i -= 32) {
    #pragma GCC ivdep
#line 3 "decreasing.okl"
    for (int i = _okl_tiled_i; i > _okl_tiled_i - 32; --i) {
#line 3 "decreasing.okl"
      if (i >= 0) {
        x[i] = n - 1 - i;
      }
    }
  }
}

#line 2 "decreasing.okl"
void _okl_entry_downTiles(void **args) {
  downTiles(*((const int *) args[0]), (int *) args[1]);
}
