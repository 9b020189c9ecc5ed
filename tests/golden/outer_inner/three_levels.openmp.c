#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "three_levels.okl"
static void box(const int nx, const int ny, const int nz, float *v, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for collapse(3)
#line 3 "three_levels.okl"
  for (int bz = 0; bz < nz; ++bz) {
    for (int by = 0; by < ny; ++by) {
      for (int bx = 0; bx < nx; ++bx) {
#line 5 "three_levels.okl"
        if (*_okl_stop)
          continue;
#line 6 "three_levels.okl"
        for (int tz = 0; tz < 2; ++tz) {
          for (int ty = 0; ty < 4; ++ty) {
            #pragma GCC ivdep
#line 8 "three_levels.okl"
            for (int tx = 0; tx < 8; ++tx) {
              const int x = bx * 8 + tx;
#line 9 "three_levels.okl"
              const int y = by * 4 + ty;
#line 9 "three_levels.okl"
              const int z = bz * 2 + tz;
              v[(z * ny * 4 + y) * nx * 8 + x] = x + y + z;
            }
          }
        }
      }
    }
  }
}

#line 2 "three_levels.okl"
void _okl_entry_box(void **args, volatile sig_atomic_t *stop) {
  box(*((const int *) args[0]), *((const int *) args[1]), *((const int *) args[2]), (float *) args[3], stop);
}
