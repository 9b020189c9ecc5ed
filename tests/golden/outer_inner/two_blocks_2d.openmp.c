#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "two_blocks_2d.okl"
static void twoBlocks(const int nb, const float *x, float *y, float *z, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 3 "two_blocks_2d.okl"
  for (int b = 0; b < nb; ++b) {
#line 3 "two_blocks_2d.okl"
    if (*_okl_stop)
      continue;
#line 4 "two_blocks_2d.okl"
    for (int j = 0; j < 4; ++j) {
      #pragma GCC ivdep
#line 5 "two_blocks_2d.okl"
      for (int i = 0; i < 8; ++i) {
        y[b * 32 + j * 8 + i] = 2.0f * x[b * 32 + j * 8 + i];
      }
    }
    for (int j = 0; j < 4; ++j) {
      #pragma GCC ivdep
#line 10 "two_blocks_2d.okl"
      for (int i = 0; i < 8; ++i) {
        z[b * 32 + j * 8 + i] = x[b * 32 + j * 8 + i] + 1.0f;
      }
    }
  }
}

#line 2 "two_blocks_2d.okl"
void _okl_entry_twoBlocks(void **args, volatile sig_atomic_t *stop) {
  twoBlocks(*((const int *) args[0]), (const float *) args[1], (float *) args[2], (float *) args[3], stop);
}
