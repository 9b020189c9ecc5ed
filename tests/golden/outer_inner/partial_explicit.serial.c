#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "partial_explicit.okl"
static void partial(const int n, const int m, int *ids, volatile sig_atomic_t *_okl_stop) {
  for (int j = 0; j < m; ++j) {
#line 3 "partial_explicit.okl"
    if (*_okl_stop)
      break;
#line 4 "partial_explicit.okl"
    for (int i = 0; i < n; ++i) {
      for (int y = 0; y < 3; ++y) {
        #pragma GCC ivdep
#line 6 "partial_explicit.okl"
        for (int x = 0; x < 5; ++x) {
          ids[((j * n + i) * 3 + y) * 5 + x] = x + 5 * y;
        }
      }
    }
  }
}

#line 2 "partial_explicit.okl"
void _okl_entry_partial(void **args, volatile sig_atomic_t *stop) {
  partial(*((const int *) args[0]), *((const int *) args[1]), (int *) args[2], stop);
}
