#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "blocks_in_loop.okl"
static void relax(const int nb, const int sweeps, float *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 4 "blocks_in_loop.okl"
  for (int b = 0; b < nb; ++b) {
#line 4 "blocks_in_loop.okl"
    if (*_okl_stop)
      continue;
#line 5 "blocks_in_loop.okl"
    float s[32];
    float t_new[32];
    #pragma GCC ivdep
#line 7 "blocks_in_loop.okl"
    for (int t = 0; t < 32; ++t) {
      s[t] = x[b * 32 + t];
    }
    for (int it = 0; it < sweeps; ++it) {
      #pragma GCC ivdep
#line 11 "blocks_in_loop.okl"
      for (int t = 0; t < 32; ++t) {
        const float left = s[(t + 31) % 32];
#line 12 "blocks_in_loop.okl"
        const float right = s[(t + 1) % 32];
        t_new[t] = 0.5f * (left + right);
      }
      #pragma GCC ivdep
#line 15 "blocks_in_loop.okl"
      for (int t = 0; t < 32; ++t) {
        s[t] = t_new[t];
      }
    }
    #pragma GCC ivdep
#line 19 "blocks_in_loop.okl"
    for (int t = 0; t < 32; ++t) {
      x[b * 32 + t] = s[t];
    }
  }
}

#line 3 "blocks_in_loop.okl"
void _okl_entry_relax(void **args, volatile sig_atomic_t *stop) {
  relax(*((const int *) args[0]), *((const int *) args[1]), (float *) args[2], stop);
}
