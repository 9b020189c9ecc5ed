#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "step.okl"
static void everyOther(const int n, float *x) {
  #pragma omp parallel for
#line 3 "step.okl"
  for (int _okl_tiled_i = 0; _okl_tiled_i < n; _okl_tiled_i += 64 * 2) {
    #pragma GCC ivdep
#line 3 "step.okl"
    for (int i = _okl_tiled_i; i < ((_okl_tiled_i + 64 * 2 < n) ? (_okl_tiled_i + 64 * 2) : (n)); i += 2) {
      x[i] = 0.0f;
    }
  }
}

#line 2 "step.okl"
void _okl_entry_everyOther(void **args) {
  everyOther(*((const int *) args[0]), (float *) args[1]);
}
