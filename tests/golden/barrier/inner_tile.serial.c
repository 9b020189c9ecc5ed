#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "inner_tile.okl"
static void shiftSum(const int n, const float *x, float *tmp, float *y, volatile sig_atomic_t *_okl_stop) {
  for (int _okl_tiled_i = 0; _okl_tiled_i < n; _okl_tiled_i += 32) {
#line 5 "inner_tile.okl"
    if (*_okl_stop)
      break;
#line 6 "inner_tile.okl"
    int t[32];
    #pragma GCC ivdep
#line 5 "inner_tile.okl"
    for (int i = _okl_tiled_i; i < ((_okl_tiled_i + 32 < n) ? (_okl_tiled_i + 32) : (n)); ++i) {
      t[i - _okl_tiled_i] = i % 32;
      tmp[i] = x[i];
    }
    float left[32];
    #pragma GCC ivdep
#line 5 "inner_tile.okl"
    for (int i = _okl_tiled_i; i < ((_okl_tiled_i + 32 < n) ? (_okl_tiled_i + 32) : (n)); ++i) {
#line 9 "inner_tile.okl"
      left[i - _okl_tiled_i] = (t[i - _okl_tiled_i] > 0) ? (tmp[i - 1]) : (0.0f);
    }
    #pragma GCC ivdep
#line 5 "inner_tile.okl"
    for (int i = _okl_tiled_i; i < ((_okl_tiled_i + 32 < n) ? (_okl_tiled_i + 32) : (n)); ++i) {
#line 11 "inner_tile.okl"
      tmp[i] = left[i - _okl_tiled_i] + tmp[i];
    }
    #pragma GCC ivdep
#line 5 "inner_tile.okl"
    for (int i = _okl_tiled_i; i < ((_okl_tiled_i + 32 < n) ? (_okl_tiled_i + 32) : (n)); ++i) {
#line 13 "inner_tile.okl"
      y[i] = tmp[i] + ((t[i - _okl_tiled_i] < 31 && i + 1 < n) ? (tmp[i + 1]) : (0.0f));
    }
  }
}

#line 4 "inner_tile.okl"
void _okl_entry_shiftSum(void **args, volatile sig_atomic_t *stop) {
  shiftSum(*((const int *) args[0]), (const float *) args[1], (float *) args[2], (float *) args[3], stop);
}
