#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "decreasing.okl"
static void reverseCopy(const int n, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for
#line 3 "decreasing.okl"
  for (int b = (n + 31) / 32 - 1; b >= 0; --b) {
#line 3 "decreasing.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 4 "decreasing.okl"
    for (int t = 31; t >= 0; t--) {
      const int i = b * 32 + t;
      if (i < n) y[n - 1 - i] = x[i];
    }
  }
}

#line 2 "decreasing.okl"
void _okl_entry_reverseCopy(void **args, volatile sig_atomic_t *stop) {
  reverseCopy(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
