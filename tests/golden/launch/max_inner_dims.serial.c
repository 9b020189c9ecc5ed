#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "max_inner_dims.okl"
static void boundedTile(const int nx, const int ny, const int bx, const int by, float *a, volatile sig_atomic_t *_okl_stop) {
  for (int gy = 0; gy < ny; ++gy) {
#line 4 "max_inner_dims.okl"
    if (*_okl_stop)
      break;
#line 5 "max_inner_dims.okl"
    for (int gx = 0; gx < nx; ++gx) {
      for (int ty = 0; ty < by; ++ty) {
        #pragma GCC ivdep
#line 7 "max_inner_dims.okl"
        for (int tx = 0; tx < bx; ++tx) {
          a[(gy * by + ty) * nx * bx + gx * bx + tx] += 1.0f;
        }
      }
    }
  }
}

#line 3 "max_inner_dims.okl"
void _okl_entry_boundedTile(void **args, volatile sig_atomic_t *stop) {
  boundedTile(*((const int *) args[0]), *((const int *) args[1]), *((const int *) args[2]), *((const int *) args[3]), (float *) args[4], stop);
}
