#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 3 "explicit_barrier.okl"
static void neighbours(const int nb, const float *x, float *y, float *z) {
  for (int b = 0; b < nb; ++b) {
    #pragma GCC ivdep
#line 5 "explicit_barrier.okl"
    for (int t = 0; t < 32; ++t) {
      y[b * 32 + t] = 2.0f * x[b * 32 + t];
    }
    #pragma GCC ivdep
    for (int t = 0; t < 32; ++t) {
      z[b * 32 + t] = y[b * 32 + (t + 1) % 32];
    }
    #pragma GCC ivdep
    for (int t = 0; t < 32; ++t) {
      y[b * 32 + t] = z[b * 32 + 31 - t];
    }
  }
}

#line 3 "explicit_barrier.okl"
void _okl_entry_neighbours(void **args) {
  neighbours(*((const int *) args[0]), (const float *) args[1], (float *) args[2], (float *) args[3]);
}
