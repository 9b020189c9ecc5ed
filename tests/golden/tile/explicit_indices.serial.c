#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "explicit_indices.okl"
static void scale2d(const int rows, const int cols, float *m, volatile sig_atomic_t *_okl_stop) {
  for (int _okl_tiled_r = 0; _okl_tiled_r < rows; _okl_tiled_r += 8) {
#line 3 "explicit_indices.okl"
    if (*_okl_stop)
      break;
#line 4 "explicit_indices.okl"
    for (int _okl_tiled_c = 0; _okl_tiled_c < cols; _okl_tiled_c += 32) {
#line 3 "explicit_indices.okl"
      for (int r = _okl_tiled_r; r < ((_okl_tiled_r + 8 < rows) ? (_okl_tiled_r + 8) : (rows)); ++r) {
        #pragma GCC ivdep
#line 4 "explicit_indices.okl"
        for (int c = _okl_tiled_c; c < ((_okl_tiled_c + 32 < cols) ? (_okl_tiled_c + 32) : (cols)); ++c) {
          m[r * cols + c] *= 0.5f;
        }
      }
    }
  }
}

#line 2 "explicit_indices.okl"
void _okl_entry_scale2d(void **args, volatile sig_atomic_t *stop) {
  scale2d(*((const int *) args[0]), *((const int *) args[1]), (float *) args[2], stop);
}
