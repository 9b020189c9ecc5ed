#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 5 "chained_sums.okl"
static void chained(const int N, const float * restrict a, const float * restrict b, float * restrict y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ((N + 7) / 8))
  for (int blk = 0; blk < (N + 7) / 8; ++blk) {
#line 7 "chained_sums.okl"
    if (*_okl_stop)
      continue;
#line 8 "chained_sums.okl"
    float s_a[8][8];
    float s_b[8][8];
#line 9 "chained_sums.okl"
    float s_b__t[8][8];
    #pragma GCC ivdep
#line 10 "chained_sums.okl"
    for (int t = 0; t < 8; ++t) {
      for (int r = 0; r < 8; ++r) {
        s_a[r][t] = a[r * 8 + t];
        s_b[r][t] = b[r * 8 + t];
#line 13 "chained_sums.okl"
        s_b__t[t][r] = s_b[r][t];
      }
    }
    {
      float acc__x[8];
      #pragma GCC ivdep
#line 16 "chained_sums.okl"
      for (int t = 0; t < 8; ++t) {
        acc__x[t] = t;
      }
#line 18 "chained_sums.okl"
      for (int m = 0; m < 8; ++m) {
        #pragma GCC ivdep
#line 16 "chained_sums.okl"
        for (int t = 0; t < 8; ++t) {
#line 19 "chained_sums.okl"
          acc__x[t] += s_a[m][t] * s_b__t[m][t];
          acc__x[t] += s_b[m][t] * blk;
        }
      }
      #pragma GCC ivdep
#line 16 "chained_sums.okl"
      for (int t = 0; t < 8; ++t) {
#line 22 "chained_sums.okl"
        if (blk * 8 + t < N) y[blk * 8 + t] = acc__x[t];
      }
    }
  }
}

#line 5 "chained_sums.okl"
void _okl_entry_chained(void **args, volatile sig_atomic_t *stop) {
  chained(*((const int *) args[0]), (const float *) args[1], (const float *) args[2], (float *) args[3], stop);
}

#line 27 "chained_sums.okl"
static void single(const int N, const float * restrict a, float * restrict y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ((N + 7) / 8))
#line 28 "chained_sums.okl"
  for (int blk = 0; blk < (N + 7) / 8; ++blk) {
#line 28 "chained_sums.okl"
    if (*_okl_stop)
      continue;
#line 29 "chained_sums.okl"
    float s_a[8][8];
    #pragma GCC ivdep
#line 30 "chained_sums.okl"
    for (int t = 0; t < 8; ++t) {
      for (int r = 0; r < 8; ++r) {
        s_a[r][t] = a[r * 8 + t];
      }
    }
    #pragma GCC ivdep
#line 35 "chained_sums.okl"
    for (int t = 0; t < 8; ++t) {
      float acc = t;
      for (int m = 0; m < 8; ++m) {
        acc += s_a[m][t] * blk;
      }
      if (blk * 8 + t < N) y[blk * 8 + t] = acc;
    }
  }
}

#line 27 "chained_sums.okl"
void _okl_entry_single(void **args, volatile sig_atomic_t *stop) {
  single(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
