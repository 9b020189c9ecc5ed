#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "nested.okl"
static void nestedTiles(const int rows, const int cols, const float *a, float *b, volatile sig_atomic_t *_okl_stop) {
  for (int _okl_tiled_r = 0; _okl_tiled_r < rows; _okl_tiled_r += 4) {
#line 4 "nested.okl"
    if (*_okl_stop)
      break;
#line 5 "nested.okl"
    for (int _okl_tiled_c = 0; _okl_tiled_c < cols; _okl_tiled_c += 16) {
#line 4 "nested.okl"
      for (int r = _okl_tiled_r; r < ((_okl_tiled_r + 4 < rows) ? (_okl_tiled_r + 4) : (rows)); ++r) {
        #pragma GCC ivdep
#line 5 "nested.okl"
        for (int c = _okl_tiled_c; c < ((_okl_tiled_c + 16 < cols) ? (_okl_tiled_c + 16) : (cols)); ++c) {
          b[c * rows + r] = a[r * cols + c];
        }
      }
    }
  }
}

#line 3 "nested.okl"
void _okl_entry_nestedTiles(void **args, volatile sig_atomic_t *stop) {
  nestedTiles(*((const int *) args[0]), *((const int *) args[1]), (const float *) args[2], (float *) args[3], stop);
}
