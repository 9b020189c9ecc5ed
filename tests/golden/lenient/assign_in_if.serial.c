#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 14 "assign_in_if.okl"
static void scale(const int n, float *x) {
  for (int b = 0; b < n; ++b) {
    #pragma GCC ivdep
#line 16 "assign_in_if.okl"
    for (int t = 0; t < 8; ++t) {
      x[b * 8 + t] *= 2.0f;
    }
  }
}

#line 14 "assign_in_if.okl"
void _okl_entry_scale(void **args) {
  scale(*((const int *) args[0]), (float *) args[1]);
}
