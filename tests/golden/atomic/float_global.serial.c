#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 3 "float_global.okl"
static void floatOps(const int n, const float *x, float *acc) {
  for (int b = 0; b < n; ++b) {
    for (int t = 0; t < 64; ++t) {
      const float v = x[b * 64 + t];
      acc[0] += v;
      acc[1] -= 0.5f * v;
      acc[2]++;
      acc[3]--;
      acc[4] = v;
    }
  }
}

#line 3 "float_global.okl"
void _okl_entry_floatOps(void **args) {
  floatOps(*((const int *) args[0]), (const float *) args[1], (float *) args[2]);
}
