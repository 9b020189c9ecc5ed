#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "plain.okl"
static void blockedSum(const int nb, const int m, const float *x, float *sums, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 3 "plain.okl"
  for (int b = 0; b < nb; ++b) {
#line 3 "plain.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 4 "plain.okl"
    for (int t = 0; t < 32; ++t) {
      float acc = 0.0f;
      for (int _okl_tiled_k = 0; _okl_tiled_k < m; _okl_tiled_k += 4) {
#line 6 "plain.okl"
        for (int k = _okl_tiled_k; k < _okl_tiled_k + 4; ++k) {
#line 6 "plain.okl"
          if (k < m) {
            acc += x[(b * 32 + t) * m + k];
          }
        }
      }
#line 9 "plain.okl"
      sums[b * 32 + t] = acc;
    }
  }
}

#line 2 "plain.okl"
void _okl_entry_blockedSum(void **args, volatile sig_atomic_t *stop) {
  blockedSum(*((const int *) args[0]), *((const int *) args[1]), (const float *) args[2], (float *) args[3], stop);
}
