#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "inner_inner.okl"
static void threadTile(const int nb, float *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 3 "inner_inner.okl"
  for (int b = 0; b < nb; ++b) {
#line 3 "inner_inner.okl"
    if (*_okl_stop)
      continue;
#line 4 "inner_inner.okl"
    for (int _okl_tiled_i = 0; _okl_tiled_i < 64; _okl_tiled_i += 8) {
      #pragma GCC ivdep
#line 4 "inner_inner.okl"
      for (int i = _okl_tiled_i; i < ((_okl_tiled_i + 8 < 64) ? (_okl_tiled_i + 8) : (64)); ++i) {
        x[b * 64 + i] = (float) i;
      }
    }
  }
}

#line 2 "inner_inner.okl"
void _okl_entry_threadTile(void **args, volatile sig_atomic_t *stop) {
  threadTile(*((const int *) args[0]), (float *) args[1], stop);
}
