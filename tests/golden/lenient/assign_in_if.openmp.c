#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 14 "assign_in_if.okl"
static void scale(const int n, float *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 15 "assign_in_if.okl"
  for (int b = 0; b < n; ++b) {
#line 15 "assign_in_if.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 16 "assign_in_if.okl"
    for (int t = 0; t < 8; ++t) {
      x[b * 8 + t] *= 2.0f;
    }
  }
}

#line 14 "assign_in_if.okl"
void _okl_entry_scale(void **args, volatile sig_atomic_t *stop) {
  scale(*((const int *) args[0]), (float *) args[1], stop);
}
