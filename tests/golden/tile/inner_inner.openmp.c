#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "inner_inner.okl"
static void threadTile(const int nb, float *x) {
  #pragma omp parallel for
#line 3 "inner_inner.okl"
  for (int b = 0; b < nb; ++b) {
    for (int _okl_tiled_i = 0; _okl_tiled_i < 64; _okl_tiled_i += 8) {
      #pragma GCC ivdep
#line 4 "inner_inner.okl"
      for (int i = _okl_tiled_i; i < ((_okl_tiled_i + 8 < 64) ? (_okl_tiled_i + 8) : (64)); ++i) {
        x[b * 64 + i] = (float) i;
      }
    }
  }
}

#line 2 "inner_inner.okl"
void _okl_entry_threadTile(void **args) {
  threadTile(*((const int *) args[0]), (float *) args[1]);
}
