#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "two_kernels.okl"
static void fill(const int n, const float value, float *x) {
  #pragma omp parallel for
#line 3 "two_kernels.okl"
  for (int b = 0; b < (n + 63) / 64; ++b) {
    #pragma GCC ivdep
#line 4 "two_kernels.okl"
    for (int t = 0; t < ((64 < n - b * 64) ? (64) : (n - b * 64)); ++t) {
      const int i = b * 64 + t;
      x[i] = value;
    }
  }
}

#line 2 "two_kernels.okl"
void _okl_entry_fill(void **args) {
  fill(*((const int *) args[0]), *((const float *) args[1]), (float *) args[2]);
}

#line 11 "two_kernels.okl"
static void scale(const int n, const float factor, float *x) {
  #pragma omp parallel for
#line 12 "two_kernels.okl"
  for (int b = 0; b < (n + 127) / 128; ++b) {
    #pragma GCC ivdep
#line 13 "two_kernels.okl"
    for (int t = 0; t < ((128 < n - b * 128) ? (128) : (n - b * 128)); ++t) {
      const int i = b * 128 + t;
      x[i] *= factor;
    }
  }
}

#line 11 "two_kernels.okl"
void _okl_entry_scale(void **args) {
  scale(*((const int *) args[0]), *((const float *) args[1]), (float *) args[2]);
}
