#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "nonconst_global.okl"
static float counter_scale = 1.0f;

static void useGlobal(const int n, float *x) {
  #pragma omp parallel for
#line 5 "nonconst_global.okl"
  for (int b = 0; b < n; ++b) {
    #pragma GCC ivdep
#line 6 "nonconst_global.okl"
    for (int t = 0; t < 16; ++t) {
      x[b * 16 + t] *= counter_scale;
    }
  }
}

#line 4 "nonconst_global.okl"
void _okl_entry_useGlobal(void **args) {
  useGlobal(*((const int *) args[0]), (float *) args[1]);
}
