#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "check_false.okl"
static void noCheck(const int n, const double *x, double *y) {
  for (int _okl_tiled_i = 0; _okl_tiled_i < n; _okl_tiled_i += 128) {
    #pragma GCC ivdep
#line 3 "check_false.okl"
    for (int i = _okl_tiled_i; i < _okl_tiled_i + 128; ++i) {
      y[i] = x[i] * x[i];
    }
  }
}

#line 2 "check_false.okl"
void _okl_entry_noCheck(void **args) {
  noCheck(*((const int *) args[0]), (const double *) args[1], (double *) args[2]);
}
