#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 3 "prefix_attributes.okl"
static void copyPrefix(const int n, const double * restrict src, double * restrict dst) {
  for (int b = 0; b < (n + 31) / 32; ++b) {
    #pragma GCC ivdep
#line 5 "prefix_attributes.okl"
    for (int t = 0; t < ((32 < n - b * 32) ? (32) : (n - b * 32)); ++t) {
      const int i = b * 32 + t;
      dst[i] = src[i];
    }
  }
}

#line 3 "prefix_attributes.okl"
void _okl_entry_copyPrefix(void **args) {
  copyPrefix(*((const int *) args[0]), (const double *) args[1], (double *) args[2]);
}
