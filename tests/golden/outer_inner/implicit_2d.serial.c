#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "implicit_2d.okl"
static void transpose(const int rows, const int cols, const float *in, float *out, volatile sig_atomic_t *_okl_stop) {
  for (int by = 0; by < (rows + 7) / 8; ++by) {
#line 3 "implicit_2d.okl"
    if (*_okl_stop)
      break;
#line 4 "implicit_2d.okl"
    for (int bx = 0; bx < (cols + 7) / 8; ++bx) {
      for (int ty = 0; ty < 8; ++ty) {
        #pragma GCC ivdep
#line 6 "implicit_2d.okl"
        for (int tx = 0; tx < (((int) (by * 8 + ty)) < rows) * ((8 < cols - bx * 8) ? (8) : (cols - bx * 8)); ++tx) {
          const int r = by * 8 + ty;
          const int c = bx * 8 + tx;
          out[c * rows + r] = in[r * cols + c];
        }
      }
    }
  }
}

#line 2 "implicit_2d.okl"
void _okl_entry_transpose(void **args, volatile sig_atomic_t *stop) {
  transpose(*((const int *) args[0]), *((const int *) args[1]), (const float *) args[2], (float *) args[3], stop);
}
