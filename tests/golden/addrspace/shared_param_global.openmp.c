#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 3 "shared_param_global.okl"
static void set(double *s, const int i) {
  s[i] = 1.0;
}

static void k(const int n, double *a) {
  #pragma omp parallel for
#line 8 "shared_param_global.okl"
  for (int b = 0; b < n; ++b) {
    double s[4];
    #pragma GCC ivdep
#line 10 "shared_param_global.okl"
    for (int i = 0; i < 4; ++i) {
      set(s, i);
      set(a + 4 * b, i);
    }
  }
}

#line 7 "shared_param_global.okl"
void _okl_entry_k(void **args) {
  k(*((const int *) args[0]), (double *) args[1]);
}
