#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "exclusive_2d_inner.okl"
static void plane(const int nb, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 3 "exclusive_2d_inner.okl"
  for (int b = 0; b < nb; ++b) {
#line 3 "exclusive_2d_inner.okl"
    if (*_okl_stop)
      continue;
#line 4 "exclusive_2d_inner.okl"
    float r[32];
    for (int j = 0; j < 4; ++j) {
      #pragma GCC ivdep
#line 6 "exclusive_2d_inner.okl"
      for (int i = 0; i < 8; ++i) {
        r[i + 8 * j] = x[(b * 4 + j) * 8 + i];
      }
    }
    for (int j = 0; j < 4; ++j) {
      #pragma GCC ivdep
#line 11 "exclusive_2d_inner.okl"
      for (int i = 0; i < 8; ++i) {
        y[(b * 4 + j) * 8 + i] = r[i + 8 * j] + j;
      }
    }
  }
}

#line 2 "exclusive_2d_inner.okl"
void _okl_entry_plane(void **args, volatile sig_atomic_t *stop) {
  plane(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
