#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "hoist_rename_uses.okl"
static void scopes(const int nb, float *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 5 "hoist_rename_uses.okl"
  for (int b = 0; b < nb; ++b) {
#line 5 "hoist_rename_uses.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 6 "hoist_rename_uses.okl"
    for (int t = 0; t < 16; ++t) {
      float buf = x[b * 16 + t];
      x[b * 16 + t] = buf + 1.0f;
    }
    {
      float buf[16];
      #pragma GCC ivdep
#line 12 "hoist_rename_uses.okl"
      for (int t = 0; t < 16; ++t) {
        buf[t] = x[b * 16 + t];
      }
      #pragma GCC ivdep
#line 15 "hoist_rename_uses.okl"
      for (int t = 0; t < 16; ++t) {
        x[b * 16 + t] = buf[15 - t];
      }
    }
    {
      float buf[16];
      #pragma GCC ivdep
#line 21 "hoist_rename_uses.okl"
      for (int t = 0; t < 16; ++t) {
        buf[t] = 2.0f * x[b * 16 + t];
      }
      #pragma GCC ivdep
#line 24 "hoist_rename_uses.okl"
      for (int t = 0; t < 16; ++t) {
        x[b * 16 + t] = buf[t] + buf[(t + 1) % 16];
      }
    }
  }
}

#line 4 "hoist_rename_uses.okl"
void _okl_entry_scopes(void **args, volatile sig_atomic_t *stop) {
  scopes(*((const int *) args[0]), (float *) args[1], stop);
}

#line 31 "hoist_rename_uses.okl"
static void other(const int n, float *buf, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 32 "hoist_rename_uses.okl"
  for (int b = 0; b < n; ++b) {
#line 32 "hoist_rename_uses.okl"
    if (*_okl_stop)
      continue;
#line 33 "hoist_rename_uses.okl"
    float tmp[8];
    #pragma GCC ivdep
#line 34 "hoist_rename_uses.okl"
    for (int t = 0; t < 8; ++t) {
      tmp[t] = buf[b * 8 + t];
    }
    #pragma GCC ivdep
#line 37 "hoist_rename_uses.okl"
    for (int t = 0; t < 8; ++t) {
      buf[b * 8 + t] = tmp[7 - t];
    }
  }
}

#line 31 "hoist_rename_uses.okl"
void _okl_entry_other(void **args, volatile sig_atomic_t *stop) {
  other(*((const int *) args[0]), (float *) args[1], stop);
}
