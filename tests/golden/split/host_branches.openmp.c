#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "host_branches.okl"
static void chooser(const int n, const int mode, double *x) {
  if (mode == 0) {
    #pragma omp parallel for
#line 4 "host_branches.okl"
    for (int b = 0; b < n; ++b) {
      #pragma GCC ivdep
#line 5 "host_branches.okl"
      for (int t = 0; t < 16; ++t) {
        x[b * 16 + t] = 0.0;
      }
    }
  } else {
    const double v = 1.0 / mode;
    #pragma omp parallel for
#line 11 "host_branches.okl"
    for (int b = 0; b < n; ++b) {
      #pragma GCC ivdep
#line 12 "host_branches.okl"
      for (int t = 0; t < 16; ++t) {
        x[b * 16 + t] = v;
      }
    }
  }
}

#line 2 "host_branches.okl"
void _okl_entry_chooser(void **args) {
  chooser(*((const int *) args[0]), *((const int *) args[1]), (double *) args[2]);
}
