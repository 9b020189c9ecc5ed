#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "decreasing.okl"
static void reverseCopy(const int n, const float *x, float *y) {
  for (int b = (n + 31) / 32 - 1; b >= 0; --b) {
    #pragma GCC ivdep
#line 4 "decreasing.okl"
    for (int t = 31; t >= 0; t--) {
      const int i = b * 32 + t;
      if (i < n) y[n - 1 - i] = x[i];
    }
  }
}

#line 2 "decreasing.okl"
void _okl_entry_reverseCopy(void **args) {
  reverseCopy(*((const int *) args[0]), (const float *) args[1], (float *) args[2]);
}
