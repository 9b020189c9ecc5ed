#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "barrier_warp.okl"
static void warpSum(const int nb, const int *x, int *out, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 3 "barrier_warp.okl"
  for (int b = 0; b < nb; ++b) {
#line 3 "barrier_warp.okl"
    if (*_okl_stop)
      continue;
#line 4 "barrier_warp.okl"
    int s[32];
    #pragma GCC ivdep
#line 5 "barrier_warp.okl"
    for (int t = 0; t < 32; ++t) {
      s[t] = x[b * 32 + t];
    }
    #pragma GCC ivdep
    for (int t = 0; t < 16; ++t)
      s[t] += s[t + 16];
    #pragma GCC ivdep
#line 13 "barrier_warp.okl"
    for (int t = 0; t < 1; ++t)
      out[b] = s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7] + s[8] + s[9] + s[10] + s[11] + s[12] + s[13] + s[14] + s[15];
  }
}

#line 2 "barrier_warp.okl"
void _okl_entry_warpSum(void **args, volatile sig_atomic_t *stop) {
  warpSum(*((const int *) args[0]), (const int *) args[1], (int *) args[2], stop);
}
