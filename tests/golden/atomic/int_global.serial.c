#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "int_global.okl"
static void intOps(const int n, const int *x, int *acc) {
  for (int b = 0; b < n; ++b) {
    for (int t = 0; t < 32; ++t) {
      const int v = x[b * 32 + t];
      acc[0] += v;
      acc[1] -= v;
      acc[2]++;
      ++acc[3];
      acc[4]--;
      --acc[5];
      acc[6] &= v;
      acc[7] |= v;
      acc[8] ^= v;
      acc[9] = v;
    }
  }
}

#line 2 "int_global.okl"
void _okl_entry_intOps(void **args) {
  intOps(*((const int *) args[0]), (const int *) args[1], (int *) args[2]);
}
