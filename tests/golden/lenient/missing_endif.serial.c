#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 4 "missing_endif.okl"
static void fill(const int n, float *x) {
  for (int b = 0; b < n; ++b) {
    #pragma GCC ivdep
#line 6 "missing_endif.okl"
    for (int t = 0; t < 8; ++t) {
      x[b * 8 + t] = 1.0f;
    }
  }
}

#line 4 "missing_endif.okl"
void _okl_entry_fill(void **args) {
  fill(*((const int *) args[0]), (float *) args[1]);
}
