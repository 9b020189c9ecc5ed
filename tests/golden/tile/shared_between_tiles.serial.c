#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "shared_between_tiles.okl"
static void stage(const int rows, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  for (int _okl_tiled_g = 0; _okl_tiled_g < rows; _okl_tiled_g += 4) {
#line 4 "shared_between_tiles.okl"
    if (*_okl_stop)
      break;
#line 4 "shared_between_tiles.okl"
    for (int g = _okl_tiled_g; g < _okl_tiled_g + 4; ++g) {
#line 4 "shared_between_tiles.okl"
      if (g < rows) {
        float s[64];
        for (int _okl_tiled_i = 0; _okl_tiled_i < 64; _okl_tiled_i += 16) {
          #pragma GCC ivdep
#line 6 "shared_between_tiles.okl"
          for (int i = _okl_tiled_i; i < ((_okl_tiled_i + 16 < 64) ? (_okl_tiled_i + 16) : (64)); ++i) {
            s[i] = x[g * 64 + i];
          }
        }
#line 9 "shared_between_tiles.okl"
        for (int _okl_tiled_i = 0; _okl_tiled_i < 64; _okl_tiled_i += 16) {
          #pragma GCC ivdep
#line 9 "shared_between_tiles.okl"
          for (int i = _okl_tiled_i; i < ((_okl_tiled_i + 16 < 64) ? (_okl_tiled_i + 16) : (64)); ++i) {
            y[g * 64 + i] = s[63 - i] + s[i];
          }
        }
      }
    }
  }
}

#line 3 "shared_between_tiles.okl"
void _okl_entry_stage(void **args, volatile sig_atomic_t *stop) {
  stage(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
