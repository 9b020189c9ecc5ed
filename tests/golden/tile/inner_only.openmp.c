#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "inner_only.okl"
static void chunks(const int nb, const int n, const float *x, float *partial, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 3 "inner_only.okl"
  for (int b = 0; b < nb; ++b) {
#line 3 "inner_only.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 4 "inner_only.okl"
    for (int _okl_tiled_i = 0; _okl_tiled_i < n; _okl_tiled_i += 4) {
#line 4 "inner_only.okl"
      for (int i = _okl_tiled_i; i < _okl_tiled_i + 4; ++i) {
#line 4 "inner_only.okl"
        if (i < n) {
          partial[b * n + i] = x[b * n + i] * 0.25f;
        }
      }
    }
  }
}

#line 2 "inner_only.okl"
void _okl_entry_chunks(void **args, volatile sig_atomic_t *stop) {
  chunks(*((const int *) args[0]), *((const int *) args[1]), (const float *) args[2], (float *) args[3], stop);
}
