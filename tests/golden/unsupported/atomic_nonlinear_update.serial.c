#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 3 "atomic_nonlinear_update.okl"
static void doubling(const int n, int *x) {
  for (int b = 0; b < n; ++b) {
    for (int t = 0; t < 4; ++t) {
      {
#line 6 "atomic_nonlinear_update.okl"
        x[0] = 2 * x[0] + 1;
      }
    }
  }
}

#line 3 "atomic_nonlinear_update.okl"
void _okl_entry_doubling(void **args) {
  doubling(*((const int *) args[0]), (int *) args[1]);
}
