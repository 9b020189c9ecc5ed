#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "tiled_blocks.okl"
static void tiledExclusive(const int rows, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  for (int _okl_tiled_g = 0; _okl_tiled_g < rows; _okl_tiled_g += 2) {
#line 4 "tiled_blocks.okl"
    if (*_okl_stop)
      break;
    int _okl_exclusive_index = 0;
#line 4 "tiled_blocks.okl"
    for (int g = _okl_tiled_g; g < _okl_tiled_g + 2; ++g) {
#line 4 "tiled_blocks.okl"
      if (g < rows) {
        float r[64];
        _okl_exclusive_index = 0;
#line 6 "tiled_blocks.okl"
        for (int _okl_tiled_i = 0; _okl_tiled_i < 64; _okl_tiled_i += 16) {
#line 6 "tiled_blocks.okl"
          for (int i = _okl_tiled_i; i < _okl_tiled_i + 16; ++i) {
#line 6 "tiled_blocks.okl"
            if (i < 64) {
              r[_okl_exclusive_index] = x[g * 64 + i];
            }
            ++_okl_exclusive_index;
          }
        }
        _okl_exclusive_index = 0;
#line 9 "tiled_blocks.okl"
        for (int _okl_tiled_i = 0; _okl_tiled_i < 64; _okl_tiled_i += 16) {
#line 9 "tiled_blocks.okl"
          for (int i = _okl_tiled_i; i < _okl_tiled_i + 16; ++i) {
#line 9 "tiled_blocks.okl"
            if (i < 64) {
              y[g * 64 + i] = 2.0f * r[_okl_exclusive_index];
            }
            ++_okl_exclusive_index;
          }
        }
      }
    }
  }
}

#line 3 "tiled_blocks.okl"
void _okl_entry_tiledExclusive(void **args, volatile sig_atomic_t *stop) {
  tiledExclusive(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
