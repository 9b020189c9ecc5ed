#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "shared_2d.okl"
static void transposeShared(const int n, const float *in, float *out, volatile sig_atomic_t *_okl_stop) {
  for (int by = 0; by < n / 16; ++by) {
#line 5 "shared_2d.okl"
    if (*_okl_stop)
      break;
#line 6 "shared_2d.okl"
    for (int bx = 0; bx < n / 16; ++bx) {
      float tile[16][16 + 1];
#line 7 "shared_2d.okl"
      float tile__t[16 + 1][16];
      for (int ty = 0; ty < 16; ++ty) {
        #pragma GCC ivdep
#line 9 "shared_2d.okl"
        for (int tx = 0; tx < 16; ++tx) {
          tile[ty][tx] = in[(by * 16 + ty) * n + bx * 16 + tx];
#line 10 "shared_2d.okl"
          tile__t[tx][ty] = tile[ty][tx];
        }
      }
      for (int ty = 0; ty < 16; ++ty) {
        #pragma GCC ivdep
#line 14 "shared_2d.okl"
        for (int tx = 0; tx < 16; ++tx) {
          out[(bx * 16 + ty) * n + by * 16 + tx] = tile__t[ty][tx];
        }
      }
    }
  }
}

#line 4 "shared_2d.okl"
void _okl_entry_transposeShared(void **args, volatile sig_atomic_t *stop) {
  transposeShared(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
