#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "check_false.okl"
static void noCheck(const int n, const double *x, double *y, volatile sig_atomic_t *_okl_stop) {
  for (int _okl_tiled_i = 0; _okl_tiled_i < n; _okl_tiled_i += 128) {
#line 3 "check_false.okl"
    if (*_okl_stop)
      break;
    #pragma GCC ivdep
#line 3 "check_false.okl"
    for (int i = _okl_tiled_i; i < _okl_tiled_i + 128; ++i) {
      y[i] = x[i] * x[i];
    }
  }
}

#line 2 "check_false.okl"
void _okl_entry_noCheck(void **args, volatile sig_atomic_t *stop) {
  noCheck(*((const int *) args[0]), (const double *) args[1], (double *) args[2], stop);
}
