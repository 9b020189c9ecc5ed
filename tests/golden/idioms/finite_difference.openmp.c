#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 5 "finite_difference.okl"
static void laplacian(const int nx, const int ny, const float h2, const float *u, float *lu, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for collapse(2)
#line 6 "finite_difference.okl"
  for (int gy = 0; gy < (ny + 8 - 1) / 8; ++gy) {
    for (int gx = 0; gx < (nx + 16 - 1) / 16; ++gx) {
#line 7 "finite_difference.okl"
      if (*_okl_stop)
        continue;
#line 8 "finite_difference.okl"
      float s_u[8 + 2][16 + 2];
      for (int ty = 0; ty < 8; ++ty) {
        #pragma GCC ivdep
#line 10 "finite_difference.okl"
        for (int tx = 0; tx < 16; ++tx) {
          const int x = gx * 16 + tx;
#line 11 "finite_difference.okl"
          const int y = gy * 8 + ty;
          const int cx = (x < nx) ? (x) : (nx - 1);
#line 12 "finite_difference.okl"
          const int cy = (y < ny) ? (y) : (ny - 1);
          s_u[ty + 1][tx + 1] = u[cy * nx + cx];
          if (tx == 0) s_u[ty + 1][0] = u[cy * nx + ((cx > 0) ? (cx - 1) : (0))];
          if (tx == 16 - 1) s_u[ty + 1][16 + 1] = u[cy * nx + ((cx < nx - 1) ? (cx + 1) : (cx))];
          if (ty == 0) s_u[0][tx + 1] = u[((cy > 0) ? (cy - 1) : (0)) * nx + cx];
          if (ty == 8 - 1) s_u[8 + 1][tx + 1] = u[((cy < ny - 1) ? (cy + 1) : (cy)) * nx + cx];
        }
      }
      for (int ty = 0; ty < 8; ++ty) {
        #pragma GCC ivdep
#line 21 "finite_difference.okl"
        for (int tx = 0; tx < (((int) (gy * 8 + ty)) < ny) * ((16 < nx - gx * 16) ? (16) : (nx - gx * 16)); ++tx) {
          const int x = gx * 16 + tx;
#line 22 "finite_difference.okl"
          const int y = gy * 8 + ty;
          {
            lu[y * nx + x] = (s_u[ty + 1][tx] + s_u[ty + 1][tx + 2] + s_u[ty][tx + 1] + s_u[ty + 2][tx + 1] - 4.0f * s_u[ty + 1][tx + 1]) / h2;
          }
        }
      }
    }
  }
}

#line 5 "finite_difference.okl"
void _okl_entry_laplacian(void **args, volatile sig_atomic_t *stop) {
  laplacian(*((const int *) args[0]), *((const int *) args[1]), *((const float *) args[2]), (const float *) args[3], (float *) args[4], stop);
}
