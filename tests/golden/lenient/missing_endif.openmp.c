#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "missing_endif.okl"
static void fill(const int n, float *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 5 "missing_endif.okl"
  for (int b = 0; b < n; ++b) {
#line 5 "missing_endif.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 6 "missing_endif.okl"
    for (int t = 0; t < 8; ++t) {
      x[b * 8 + t] = 1.0f;
    }
  }
}

#line 4 "missing_endif.okl"
void _okl_entry_fill(void **args, volatile sig_atomic_t *stop) {
  fill(*((const int *) args[0]), (float *) args[1], stop);
}
