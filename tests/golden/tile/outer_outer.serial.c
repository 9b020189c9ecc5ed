#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "outer_outer.okl"
static void gridTile(const int n, float *x) {
  for (int _okl_tiled_i = 0; _okl_tiled_i < n; _okl_tiled_i += 16) {
#line 3 "outer_outer.okl"
    for (int i = _okl_tiled_i; i < _okl_tiled_i + 16; ++i) {
#line 3 "outer_outer.okl"
      if (i < n) {
        #pragma GCC ivdep
#line 4 "outer_outer.okl"
        for (int t = 0; t < 32; ++t) {
          x[i * 32 + t] = 1.0f;
        }
      }
    }
  }
}

#line 2 "outer_outer.okl"
void _okl_entry_gridTile(void **args) {
  gridTile(*((const int *) args[0]), (float *) args[1]);
}
