#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 5 "matmul_tiled.okl"
static void matmul(const int n, const float *A, const float *B, float *C, volatile sig_atomic_t *_okl_stop) {
  for (int by = 0; by < n / 16; ++by) {
#line 6 "matmul_tiled.okl"
    if (*_okl_stop)
      break;
#line 7 "matmul_tiled.okl"
    for (int bx = 0; bx < n / 16; ++bx) {
      float sA[16][16];
      float sB[16][16];
      float acc[256];
#line 10 "matmul_tiled.okl"
      for (int _okl_slot = 0; _okl_slot < 256; ++_okl_slot)
        acc[_okl_slot] = 0.0f;
#line 11 "matmul_tiled.okl"
      for (int kt = 0; kt < n / 16; ++kt) {
        for (int ty = 0; ty < 16; ++ty) {
          #pragma GCC ivdep
#line 13 "matmul_tiled.okl"
          for (int tx = 0; tx < 16; ++tx) {
            sA[ty][tx] = A[(by * 16 + ty) * n + kt * 16 + tx];
            sB[ty][tx] = B[(kt * 16 + ty) * n + bx * 16 + tx];
          }
        }
        for (int ty = 0; ty < 16; ++ty) {
          #pragma GCC ivdep
#line 19 "matmul_tiled.okl"
          for (int tx = 0; tx < 16; ++tx) {
            for (int k = 0; k < 16; ++k) acc[tx + 16 * ty] += sA[ty][k] * sB[k][tx];
          }
        }
      }
      for (int ty = 0; ty < 16; ++ty) {
        #pragma GCC ivdep
#line 25 "matmul_tiled.okl"
        for (int tx = 0; tx < 16; ++tx) {
          C[(by * 16 + ty) * n + bx * 16 + tx] = acc[tx + 16 * ty];
        }
      }
    }
  }
}

#line 5 "matmul_tiled.okl"
void _okl_entry_matmul(void **args, volatile sig_atomic_t *stop) {
  matmul(*((const int *) args[0]), (const float *) args[1], (const float *) args[2], (float *) args[3], stop);
}
