#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 4 "extern_constant.okl"
static const int weights[4] = {1, 2, 3, 4};

static void weigh(const int n, const int *x, int *y) {
  #pragma omp parallel for
#line 7 "extern_constant.okl"
  for (int b = 0; b < n; ++b) {
    #pragma GCC ivdep
#line 8 "extern_constant.okl"
    for (int i = 0; i < 4; ++i) {
      y[b * 4 + i] = weights[i] * x[b * 4 + i];
    }
  }
}

#line 6 "extern_constant.okl"
void _okl_entry_weigh(void **args) {
  weigh(*((const int *) args[0]), (const int *) args[1], (int *) args[2]);
}
