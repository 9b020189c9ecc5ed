#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "outer_outer.okl"
static void gridTile(const int n, float *x, volatile sig_atomic_t *_okl_stop) {
  for (int _okl_tiled_i = 0; _okl_tiled_i < n; _okl_tiled_i += 16) {
#line 3 "outer_outer.okl"
    if (*_okl_stop)
      break;
#line 3 "outer_outer.okl"
    for (int i = _okl_tiled_i; i < _okl_tiled_i + 16; ++i) {
#line 3 "outer_outer.okl"
      if (i < n) {
        #pragma GCC ivdep
#line 4 "outer_outer.okl"
        for (int t = 0; t < 32; ++t) {
          x[i * 32 + t] = 1.0f;
        }
      }
    }
  }
}

#line 2 "outer_outer.okl"
void _okl_entry_gridTile(void **args, volatile sig_atomic_t *stop) {
  gridTile(*((const int *) args[0]), (float *) args[1], stop);
}
