#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "blocks_in_regular_loop.okl"
static void iterate(const int nb, const int steps, float *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 3 "blocks_in_regular_loop.okl"
  for (int b = 0; b < nb; ++b) {
#line 3 "blocks_in_regular_loop.okl"
    if (*_okl_stop)
      continue;
#line 4 "blocks_in_regular_loop.okl"
    float r[16];
    #pragma GCC ivdep
#line 5 "blocks_in_regular_loop.okl"
    for (int t = 0; t < 16; ++t) {
      r[t] = x[b * 16 + t];
    }
    for (int s = 0; s < steps; ++s) {
      #pragma GCC unroll 4
      #pragma GCC ivdep
#line 9 "blocks_in_regular_loop.okl"
      for (int t = 0; t < 16; ++t) {
        r[t] = 0.5f * r[t] + 1.0f;
      }
    }
    #pragma GCC ivdep
#line 13 "blocks_in_regular_loop.okl"
    for (int t = 0; t < 16; ++t) {
      x[b * 16 + t] = r[t];
    }
  }
}

#line 2 "blocks_in_regular_loop.okl"
void _okl_entry_iterate(void **args, volatile sig_atomic_t *stop) {
  iterate(*((const int *) args[0]), *((const int *) args[1]), (float *) args[2], stop);
}
