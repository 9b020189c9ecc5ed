#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "step_decrement.okl"
static void countdown(const int n, int *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for
#line 3 "step_decrement.okl"
  for (int b = n - 1; b >= 0; b -= 3) {
#line 3 "step_decrement.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 4 "step_decrement.okl"
    for (int t = 12; t > 0; t -= 4) {
      x[b * 3 + t / 4 - 1] = b + t;
    }
  }
}

#line 2 "step_decrement.okl"
void _okl_entry_countdown(void **args, volatile sig_atomic_t *stop) {
  countdown(*((const int *) args[0]), (int *) args[1], stop);
}
