#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 5 "inner_private.okl"
static void privates(const int nb, const int mode, const int *x, int *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 6 "inner_private.okl"
  for (int b = 0; b < nb; ++b) {
#line 6 "inner_private.okl"
    if (*_okl_stop)
      continue;
#line 7 "inner_private.okl"
    int s[32];
    int e[32];
#line 10 "inner_private.okl"
    int mine[32];
    int acc[32][3];
    const int half = 16;
    #pragma GCC ivdep
#line 9 "inner_private.okl"
    for (int t = 0; t < 32; ++t) {
      mine[t] = x[b * 32 + t];
      {
        int _okl_init_acc[3] = {1, 2};
        __builtin_memcpy(&acc[t], &_okl_init_acc, sizeof(_okl_init_acc));
      }
#line 13 "inner_private.okl"
      e[t] = mine[t] * 2;
      s[t] = mine[t];
    }
#line 15 "inner_private.okl"
    if (mode > 0) {
      #pragma GCC ivdep
#line 9 "inner_private.okl"
      for (int t = 0; t < 32; ++t) {
#line 17 "inner_private.okl"
        acc[t][2] = s[31 - t];
      }
    } else {
      #pragma GCC ivdep
#line 9 "inner_private.okl"
      for (int t = 0; t < 32; ++t) {
#line 20 "inner_private.okl"
        acc[t][2] = s[(t + 1) % 32];
      }
    }
#line 22 "inner_private.okl"
    for (int r = 0; r < 8; ++r) {
      if (r == 5) break;
      if (r == 1) continue;
      #pragma GCC ivdep
#line 9 "inner_private.okl"
      for (int t = 0; t < 32; ++t) {
#line 26 "inner_private.okl"
        acc[t][0] += s[(t + r) % 32];
        for (int q = 0; q < 4; ++q) {
          if (q == r) break;
          acc[t][1] += q;
        }
      }
    }
    #pragma GCC ivdep
#line 9 "inner_private.okl"
    for (int t = 0; t < 32; ++t) {
#line 33 "inner_private.okl"
      s[t] = acc[t][0] + acc[t][1] + acc[t][2] + e[t] + ((t < half) ? (1) : (0));
    }
    #pragma GCC ivdep
#line 9 "inner_private.okl"
    for (int t = 0; t < 32; ++t) {
#line 35 "inner_private.okl"
      y[b * 32 + t] = s[t] + mine[t];
    }
  }
}

#line 5 "inner_private.okl"
void _okl_entry_privates(void **args, volatile sig_atomic_t *stop) {
  privates(*((const int *) args[0]), *((const int *) args[1]), (const int *) args[2], (int *) args[3], stop);
}
