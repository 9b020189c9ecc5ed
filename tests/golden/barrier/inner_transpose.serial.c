#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 5 "inner_transpose.okl"
static void transpose(const int n, const float *a, float *at, volatile sig_atomic_t *_okl_stop) {
  for (int by = 0; by < n / 16; ++by) {
#line 6 "inner_transpose.okl"
    if (*_okl_stop)
      break;
#line 7 "inner_transpose.okl"
    for (int bx = 0; bx < n / 16; ++bx) {
      float tile[16][16 + 1];
#line 8 "inner_transpose.okl"
      float tile__t[16 + 1][16];
#line 10 "inner_transpose.okl"
      int row[16];
#line 12 "inner_transpose.okl"
      int col[256];
#line 9 "inner_transpose.okl"
      for (int j = 0; j < 16; ++j) {
        row[j] = bx * 16 + j;
        #pragma GCC ivdep
#line 11 "inner_transpose.okl"
        for (int i = 0; i < 16; ++i) {
          col[j * 16 + i] = by * 16 + i;
          tile[j][i] = a[(by * 16 + j) * n + bx * 16 + i];
#line 13 "inner_transpose.okl"
          tile__t[i][j] = tile[j][i];
        }
      }
#line 9 "inner_transpose.okl"
      for (int j = 0; j < 16; ++j) {
#line 11 "inner_transpose.okl"
        for (int i = 0; i < 16; ++i) {
#line 15 "inner_transpose.okl"
          at[row[j] * n + col[j * 16 + i]] = tile__t[j][i];
        }
      }
    }
  }
}

#line 5 "inner_transpose.okl"
void _okl_entry_transpose(void **args, volatile sig_atomic_t *stop) {
  transpose(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
