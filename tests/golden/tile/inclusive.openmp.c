#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "inclusive.okl"
static void upTo(const int last, float *x) {
  #pragma omp parallel for
#line 3 "inclusive.okl"
  for (int _okl_tiled_i = 1; _okl_tiled_i <= last; _okl_tiled_i += 16) {
    #pragma GCC ivdep
#line 3 "inclusive.okl"
    for (int i = _okl_tiled_i; i < ((_okl_tiled_i + 16 < last + 1) ? (_okl_tiled_i + 16) : (last + 1)); ++i) {
      x[i] = 1.0f / i;
    }
  }
}

#line 2 "inclusive.okl"
void _okl_entry_upTo(void **args) {
  upTo(*((const int *) args[0]), (float *) args[1]);
}
