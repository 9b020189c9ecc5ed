#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "inner_only.okl"
static void chunks(const int nb, const int n, const float *x, float *partial) {
  for (int b = 0; b < nb; ++b) {
    #pragma GCC ivdep
#line 4 "inner_only.okl"
    for (int _okl_tiled_i = 0; _okl_tiled_i < n; _okl_tiled_i += 4) {
#line 4 "inner_only.okl"
      for (int i = _okl_tiled_i; i < _okl_tiled_i + 4; ++i) {
#line 4 "inner_only.okl"
        if (i < n) {
          partial[b * n + i] = x[b * n + i] * 0.25f;
        }
      }
    }
  }
}

#line 2 "inner_only.okl"
void _okl_entry_chunks(void **args) {
  chunks(*((const int *) args[0]), *((const int *) args[1]), (const float *) args[2], (float *) args[3]);
}
