#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "step_increment.okl"
static void strided(const int n, float *x) {
  for (int b = 0; b < n; b += 64) {
    #pragma GCC ivdep
#line 4 "step_increment.okl"
    for (int t = 0; t < 64; t += 2) {
      if (b + t < n) x[b + t] = 1.0f;
      if (b + t + 1 < n) x[b + t + 1] = 2.0f;
    }
  }
}

#line 2 "step_increment.okl"
void _okl_entry_strided(void **args) {
  strided(*((const int *) args[0]), (float *) args[1]);
}
