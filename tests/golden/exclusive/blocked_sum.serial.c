#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }
#if defined(__GNUC__) && !defined(__clang__)
#define _okl_no_jam __attribute__((optimize("no-loop-unroll-and-jam")))
#else
#define _okl_no_jam
#endif

#line 5 "blocked_sum.okl"
_okl_no_jam static void blockedSum(const int N, const float * restrict x, float * restrict partial, volatile sig_atomic_t *_okl_stop) {
  for (int b = 0; b < (N + 4 * 64 - 1) / (4 * 64); ++b) {
#line 6 "blocked_sum.okl"
    if (*_okl_stop)
      break;
#line 12 "blocked_sum.okl"
    if (64 <= N - (b * 4 + (4 - 1)) * 64) {
#line 7 "blocked_sum.okl"
      float s[64];
      float r[64];
      #pragma GCC ivdep
#line 9 "blocked_sum.okl"
      for (int t = 0; t < 64; ++t) {
        r[t] = 0;
      }
      {
#line 12 "blocked_sum.okl"
        int u = 0;
#line 12 "blocked_sum.okl"
        for (; u < 4; ++u) {
          #pragma GCC ivdep
          #pragma GCC unroll 16
#line 13 "blocked_sum.okl"
          for (int t = 0; t < 64; ++t) {
            const int i = (b * 4 + u) * 64 + t;
            r[t] += x[i];
          }
        }
      }
      #pragma GCC ivdep
#line 18 "blocked_sum.okl"
      for (int t = 0; t < 64; ++t) {
        s[t] = r[t];
      }
      {
#line 21 "blocked_sum.okl"
        const int n = 32;
        {
          #pragma GCC ivdep
#line 22 "blocked_sum.okl"
          for (int t = 0; t < ((64 < n) ? (64) : (n)); ++t)
            s[t] += s[t + n];
        }
      }
      {
#line 21 "blocked_sum.okl"
        const int n = 16;
        {
          #pragma GCC ivdep
#line 22 "blocked_sum.okl"
          for (int t = 0; t < ((64 < n) ? (64) : (n)); ++t)
            s[t] += s[t + n];
        }
      }
      {
#line 21 "blocked_sum.okl"
        const int n = 8;
        {
          #pragma GCC ivdep
#line 22 "blocked_sum.okl"
          for (int t = 0; t < ((64 < n) ? (64) : (n)); ++t)
            s[t] += s[t + n];
        }
      }
      {
#line 21 "blocked_sum.okl"
        const int n = 4;
        {
          #pragma GCC ivdep
#line 22 "blocked_sum.okl"
          for (int t = 0; t < ((64 < n) ? (64) : (n)); ++t)
            s[t] += s[t + n];
        }
      }
      {
#line 21 "blocked_sum.okl"
        const int n = 2;
        {
          #pragma GCC ivdep
#line 22 "blocked_sum.okl"
          for (int t = 0; t < ((64 < n) ? (64) : (n)); ++t)
            s[t] += s[t + n];
        }
      }
      {
#line 21 "blocked_sum.okl"
        const int n = 1;
        {
          #pragma GCC ivdep
#line 22 "blocked_sum.okl"
          for (int t = 0; t < ((64 < n) ? (64) : (n)); ++t)
            s[t] += s[t + n];
        }
      }
      #pragma GCC ivdep
#line 26 "blocked_sum.okl"
      for (int t = 0; t < 1; ++t)
        partial[b] = s[0];
    } else {
#line 7 "blocked_sum.okl"
      float s[64];
      float r[64];
      #pragma GCC ivdep
#line 9 "blocked_sum.okl"
      for (int t = 0; t < 64; ++t) {
        r[t] = 0;
      }
      {
#line 12 "blocked_sum.okl"
        int u = 0;
#line 12 "blocked_sum.okl"
        for (; u < 4 && 64 <= N - (b * 4 + u) * 64; ++u) {
          #pragma GCC ivdep
          #pragma GCC unroll 16
#line 13 "blocked_sum.okl"
          for (int t = 0; t < 64; ++t) {
            const int i = (b * 4 + u) * 64 + t;
            r[t] += x[i];
          }
        }
#line 12 "blocked_sum.okl"
        for (; u < 4; ++u) {
          #pragma GCC ivdep
#line 13 "blocked_sum.okl"
          for (int t = 0; t < ((64 < N - (b * 4 + u) * 64) ? (64) : (N - (b * 4 + u) * 64)); ++t) {
            const int i = (b * 4 + u) * 64 + t;
            r[t] += x[i];
          }
        }
      }
      #pragma GCC ivdep
#line 18 "blocked_sum.okl"
      for (int t = 0; t < 64; ++t) {
        s[t] = r[t];
      }
      {
#line 21 "blocked_sum.okl"
        const int n = 32;
        {
          #pragma GCC ivdep
#line 22 "blocked_sum.okl"
          for (int t = 0; t < ((64 < n) ? (64) : (n)); ++t)
            s[t] += s[t + n];
        }
      }
      {
#line 21 "blocked_sum.okl"
        const int n = 16;
        {
          #pragma GCC ivdep
#line 22 "blocked_sum.okl"
          for (int t = 0; t < ((64 < n) ? (64) : (n)); ++t)
            s[t] += s[t + n];
        }
      }
      {
#line 21 "blocked_sum.okl"
        const int n = 8;
        {
          #pragma GCC ivdep
#line 22 "blocked_sum.okl"
          for (int t = 0; t < ((64 < n) ? (64) : (n)); ++t)
            s[t] += s[t + n];
        }
      }
      {
#line 21 "blocked_sum.okl"
        const int n = 4;
        {
          #pragma GCC ivdep
#line 22 "blocked_sum.okl"
          for (int t = 0; t < ((64 < n) ? (64) : (n)); ++t)
            s[t] += s[t + n];
        }
      }
      {
#line 21 "blocked_sum.okl"
        const int n = 2;
        {
          #pragma GCC ivdep
#line 22 "blocked_sum.okl"
          for (int t = 0; t < ((64 < n) ? (64) : (n)); ++t)
            s[t] += s[t + n];
        }
      }
      {
#line 21 "blocked_sum.okl"
        const int n = 1;
        {
          #pragma GCC ivdep
#line 22 "blocked_sum.okl"
          for (int t = 0; t < ((64 < n) ? (64) : (n)); ++t)
            s[t] += s[t + n];
        }
      }
      #pragma GCC ivdep
#line 26 "blocked_sum.okl"
      for (int t = 0; t < 1; ++t)
        partial[b] = s[0];
    }
  }
}

#line 5 "blocked_sum.okl"
void _okl_entry_blockedSum(void **args, volatile sig_atomic_t *stop) {
  blockedSum(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
