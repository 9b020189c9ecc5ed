#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "outer_only.okl"
static void rowsPerGroup(const int rows, const float *a, float *b, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for
#line 3 "outer_only.okl"
  for (int _okl_tiled_r = 0; _okl_tiled_r < rows; _okl_tiled_r += 4) {
#line 3 "outer_only.okl"
    if (*_okl_stop)
      continue;
#line 3 "outer_only.okl"
    for (int r = _okl_tiled_r; r < _okl_tiled_r + 4; ++r) {
#line 3 "outer_only.okl"
      if (r < rows) {
        #pragma GCC ivdep
#line 4 "outer_only.okl"
        for (int c = 0; c < 64; ++c) {
          b[r * 64 + c] = 2.0f * a[r * 64 + c];
        }
      }
    }
  }
}

#line 2 "outer_only.okl"
void _okl_entry_rowsPerGroup(void **args, volatile sig_atomic_t *stop) {
  rowsPerGroup(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
