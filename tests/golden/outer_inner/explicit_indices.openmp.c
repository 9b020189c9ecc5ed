#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "explicit_indices.okl"
static void explicitAxes(const int nx, const int ny, float *grid, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for collapse(2)
#line 3 "explicit_indices.okl"
  for (int bx = 0; bx < nx; ++bx) {
    for (int by = 0; by < ny; ++by) {
#line 4 "explicit_indices.okl"
      if (*_okl_stop)
        continue;
#line 5 "explicit_indices.okl"
      for (int tx = 0; tx < 4; ++tx) {
        #pragma GCC ivdep
#line 6 "explicit_indices.okl"
        for (int ty = 0; ty < 2; ++ty) {
          grid[((by * 2 + ty) * nx + bx) * 4 + tx] = bx + 10.0f * by;
        }
      }
    }
  }
}

#line 2 "explicit_indices.okl"
void _okl_entry_explicitAxes(void **args, volatile sig_atomic_t *stop) {
  explicitAxes(*((const int *) args[0]), *((const int *) args[1]), (float *) args[2], stop);
}
