#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "exclusive_nested_outer.okl"
static void nestedExclusive(const int n, float *x, volatile sig_atomic_t *_okl_stop) {
  for (int b = 0; b < n; ++b) {
#line 4 "exclusive_nested_outer.okl"
    if (*_okl_stop)
      break;
    for (int c = 0; c < 3; ++c) {
#line 5 "exclusive_nested_outer.okl"
      float r[8];
      #pragma GCC ivdep
      for (int t = 0; t < 8; ++t) {
        r[t] = b * 100 + c * 10 + t;
      }
      #pragma GCC ivdep
#line 10 "exclusive_nested_outer.okl"
      for (int t = 0; t < 8; ++t) {
        x[(b * 3 + c) * 8 + t] = 2 * r[t];
      }
    }
  }
}

#line 3 "exclusive_nested_outer.okl"
void _okl_entry_nestedExclusive(void **args, volatile sig_atomic_t *stop) {
  nestedExclusive(*((const int *) args[0]), (float *) args[1], stop);
}
