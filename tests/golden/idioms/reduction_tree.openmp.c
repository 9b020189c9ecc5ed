#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 5 "reduction_tree.okl"
static void reduceSum(const int N, const float *x, float *blockSums, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < (((N + 256) - 1) / 256))
#line 6 "reduction_tree.okl"
  for (int b = 0; b < (N + 256 - 1) / 256; ++b) {
#line 6 "reduction_tree.okl"
    if (*_okl_stop)
      continue;
#line 7 "reduction_tree.okl"
    float s_sum[256];
    #pragma GCC ivdep
#line 8 "reduction_tree.okl"
    for (int t = 0; t < 256; ++t) {
      const int i = b * 256 + t;
      s_sum[t] = (i < N) ? (x[i]) : (0.0f);
    }
    #pragma GCC ivdep
#line 12 "reduction_tree.okl"
    for (int t = 0; t < 128; ++t)
      s_sum[t] += s_sum[t + 128];
    #pragma GCC ivdep
    for (int t = 0; t < 64; ++t)
      s_sum[t] += s_sum[t + 64];
    #pragma GCC ivdep
#line 17 "reduction_tree.okl"
    for (int t = 0; t < 32; ++t)
      s_sum[t] += s_sum[t + 32];
    #pragma GCC ivdep
    for (int t = 0; t < 16; ++t)
      s_sum[t] += s_sum[t + 16];
    #pragma GCC ivdep
    for (int t = 0; t < 8; ++t)
      s_sum[t] += s_sum[t + 8];
    #pragma GCC ivdep
    for (int t = 0; t < 4; ++t)
      s_sum[t] += s_sum[t + 4];
    #pragma GCC ivdep
    for (int t = 0; t < 2; ++t)
      s_sum[t] += s_sum[t + 2];
    #pragma GCC ivdep
    for (int t = 0; t < 1; ++t)
      blockSums[b] = s_sum[0] + s_sum[1];
  }
}

#line 5 "reduction_tree.okl"
void _okl_entry_reduceSum(void **args, volatile sig_atomic_t *stop) {
  reduceSum(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
