#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 5 "reduction_tree.okl"
static void reduceSum(const int N, const float *x, float *blockSums) {
  #pragma omp parallel for
#line 6 "reduction_tree.okl"
  for (int b = 0; b < (N + 256 - 1) / 256; ++b) {
    float s_sum[256];
    for (int t = 0; t < 256; ++t) {
      const int i = b * 256 + t;
      s_sum[t] = (i < N) ? (x[i]) : (0.0f);
    }
    for (int t = 0; t < 256; ++t) {
      if (t < 128) s_sum[t] += s_sum[t + 128];
    }
    for (int t = 0; t < 256; ++t)
      if (t < 64) s_sum[t] += s_sum[t + 64];
    for (int t = 0; t < 256; ++t) {
      if (t < 32) s_sum[t] += s_sum[t + 32];
    }
    for (int t = 0; t < 256; ++t) {
      if (t < 16) s_sum[t] += s_sum[t + 16];
    }
    for (int t = 0; t < 256; ++t) {
      if (t < 8) s_sum[t] += s_sum[t + 8];
    }
    for (int t = 0; t < 256; ++t) {
      if (t < 4) s_sum[t] += s_sum[t + 4];
    }
    for (int t = 0; t < 256; ++t) {
      if (t < 2) s_sum[t] += s_sum[t + 2];
    }
    for (int t = 0; t < 256; ++t) {
      if (t == 0) blockSums[b] = s_sum[0] + s_sum[1];
    }
  }
}

#line 5 "reduction_tree.okl"
void _okl_entry_reduceSum(void **args) {
  reduceSum(*((const int *) args[0]), (const float *) args[1], (float *) args[2]);
}
