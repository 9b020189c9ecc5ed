#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "step_increment.okl"
static void strided(const int n, float *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for
#line 3 "step_increment.okl"
  for (int b = 0; b < n; b += 64) {
#line 3 "step_increment.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 4 "step_increment.okl"
    for (int t = 0; t < 64; t += 2) {
      if (b + t < n) x[b + t] = 1.0f;
      if (b + t + 1 < n) x[b + t + 1] = 2.0f;
    }
  }
}

#line 2 "step_increment.okl"
void _okl_entry_strided(void **args, volatile sig_atomic_t *stop) {
  strided(*((const int *) args[0]), (float *) args[1], stop);
}
