#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "flipped_comparison.okl"
static void flipped(const int n, float *x) {
  for (int b = 0; n > b; ++b) {
    #pragma GCC ivdep
#line 4 "flipped_comparison.okl"
    for (int t = 15; 0 <= t; --t) {
      x[b * 16 + t] = (float) t;
    }
  }
}

#line 2 "flipped_comparison.okl"
void _okl_entry_flipped(void **args) {
  flipped(*((const int *) args[0]), (float *) args[1]);
}
