#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "inner_reduction.okl"
static void blockSum(const int nb, const float *x, float *out, volatile sig_atomic_t *_okl_stop) {
  for (int b = 0; b < nb; ++b) {
#line 4 "inner_reduction.okl"
    if (*_okl_stop)
      break;
#line 5 "inner_reduction.okl"
    float s[64];
    #pragma GCC ivdep
#line 6 "inner_reduction.okl"
    for (int t = 0; t < 64; ++t) {
      s[t] = x[b * 64 + t];
    }
    {
#line 8 "inner_reduction.okl"
      const int w = 32;
      {
        #pragma GCC ivdep
#line 6 "inner_reduction.okl"
        for (int t = 0; t < ((64 < w) ? (64) : (w)); ++t)
#line 10 "inner_reduction.okl"
          s[t] += s[t + w];
      }
    }
    {
#line 8 "inner_reduction.okl"
      const int w = 16;
      {
        #pragma GCC ivdep
#line 6 "inner_reduction.okl"
        for (int t = 0; t < ((64 < w) ? (64) : (w)); ++t)
#line 10 "inner_reduction.okl"
          s[t] += s[t + w];
      }
    }
    {
#line 8 "inner_reduction.okl"
      const int w = 8;
      {
        #pragma GCC ivdep
#line 6 "inner_reduction.okl"
        for (int t = 0; t < ((64 < w) ? (64) : (w)); ++t)
#line 10 "inner_reduction.okl"
          s[t] += s[t + w];
      }
    }
    {
#line 8 "inner_reduction.okl"
      const int w = 4;
      {
        #pragma GCC ivdep
#line 6 "inner_reduction.okl"
        for (int t = 0; t < ((64 < w) ? (64) : (w)); ++t)
#line 10 "inner_reduction.okl"
          s[t] += s[t + w];
      }
    }
    {
#line 8 "inner_reduction.okl"
      const int w = 2;
      {
        #pragma GCC ivdep
#line 6 "inner_reduction.okl"
        for (int t = 0; t < ((64 < w) ? (64) : (w)); ++t)
#line 10 "inner_reduction.okl"
          s[t] += s[t + w];
      }
    }
    {
#line 8 "inner_reduction.okl"
      const int w = 1;
      {
        #pragma GCC ivdep
#line 6 "inner_reduction.okl"
        for (int t = 0; t < ((64 < w) ? (64) : (w)); ++t)
#line 10 "inner_reduction.okl"
          s[t] += s[t + w];
      }
    }
    #pragma GCC ivdep
#line 6 "inner_reduction.okl"
    for (int t = 0; t < 1; ++t)
#line 12 "inner_reduction.okl"
      out[b] = s[0];
  }
}

#line 3 "inner_reduction.okl"
void _okl_entry_blockSum(void **args, volatile sig_atomic_t *stop) {
  blockSum(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
