#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "flipped_comparison.okl"
static void flipped(const int n, float *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 3 "flipped_comparison.okl"
  for (int b = 0; n > b; ++b) {
#line 3 "flipped_comparison.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 4 "flipped_comparison.okl"
    for (int t = 15; 0 <= t; --t) {
      x[b * 16 + t] = (float) t;
    }
  }
}

#line 2 "flipped_comparison.okl"
void _okl_entry_flipped(void **args, volatile sig_atomic_t *stop) {
  flipped(*((const int *) args[0]), (float *) args[1], stop);
}
