#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "explicit_barrier.okl"
static void neighbours(const int nb, const float *x, float *y, float *z, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 4 "explicit_barrier.okl"
  for (int b = 0; b < nb; ++b) {
#line 4 "explicit_barrier.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 5 "explicit_barrier.okl"
    for (int t = 0; t < 32; ++t) {
      y[b * 32 + t] = 2.0f * x[b * 32 + t];
    }
    #pragma GCC ivdep
    for (int t = 0; t < 32; ++t) {
      z[b * 32 + t] = y[b * 32 + (t + 1) % 32];
    }
    #pragma GCC ivdep
    for (int t = 0; t < 32; ++t) {
      y[b * 32 + t] = z[b * 32 + 31 - t];
    }
  }
}

#line 3 "explicit_barrier.okl"
void _okl_entry_neighbours(void **args, volatile sig_atomic_t *stop) {
  neighbours(*((const int *) args[0]), (const float *) args[1], (float *) args[2], (float *) args[3], stop);
}
