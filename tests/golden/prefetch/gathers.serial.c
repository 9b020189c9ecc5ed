#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "gathers.okl"
static void edgeDiff(const int nedge, const int * restrict enode, const int * restrict flag, const double * restrict x, double * restrict d, volatile sig_atomic_t *_okl_stop) {
#line 6 "gathers.okl"
  for (int b = 0; b < (nedge + 63) / 64; ++b) {
#line 6 "gathers.okl"
    if (*_okl_stop)
      break;
#line 7 "gathers.okl"
    int on[64];
    #pragma GCC ivdep
#line 8 "gathers.okl"
    for (int t = 0; t < 64; ++t) {
#line 8 "gathers.okl"
      if (t + 8 < 64) {
#line 8 "gathers.okl"
        const int _okl_ahead = t + 8;
        const int e = b * 64 + _okl_ahead;
        if ((e < nedge) ? (flag[e]) : (0)) {
#line 12 "gathers.okl"
          const int n0 = enode[2 * e];
#line 12 "gathers.okl"
          const int n1 = enode[2 * e + 1];
          __builtin_prefetch(&x[2 * n1]);
          __builtin_prefetch(&x[2 * n0]);
        }
      }
#line 9 "gathers.okl"
      const int e = b * 64 + t;
      on[t] = (e < nedge) ? (flag[e]) : (0);
      if (on[t]) {
        const int n0 = enode[2 * e];
#line 12 "gathers.okl"
        const int n1 = enode[2 * e + 1];
        d[e] = x[2 * n1] - x[2 * n0] + x[2 * n1 + 1] - x[2 * n0 + 1];
      }
    }
  }
}

#line 3 "gathers.okl"
void _okl_entry_edgeDiff(void **args, volatile sig_atomic_t *stop) {
  edgeDiff(*((const int *) args[0]), (const int *) args[1], (const int *) args[2], (const double *) args[3], (double *) args[4], stop);
}
