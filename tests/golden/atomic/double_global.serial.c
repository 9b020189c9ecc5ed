#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "double_global.okl"
static void doubleOps(const int n, const double *x, double *acc) {
  for (int b = 0; b < n; ++b) {
    for (int t = 0; t < 64; ++t) {
      const double v = x[b * 64 + t];
      acc[0] += v * v;
      acc[1] -= v;
      ++acc[2];
      --acc[3];
      acc[4] = v;
    }
  }
}

#line 2 "double_global.okl"
void _okl_entry_doubleOps(void **args) {
  doubleOps(*((const int *) args[0]), (const double *) args[1], (double *) args[2]);
}
