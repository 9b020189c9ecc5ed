#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "host_early_return.okl"
static void guarded(const int n, float *x, volatile sig_atomic_t *_okl_stop) {
  if (n <= 0) return;
  const int blocks = (n + 15) / 16;
  #pragma omp parallel for if(parallel: 1 < blocks)
#line 5 "host_early_return.okl"
  for (int b = 0; b < blocks; ++b) {
#line 5 "host_early_return.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 6 "host_early_return.okl"
    for (int t = 0; t < 16; ++t) {
      if (b * 16 + t < n) x[b * 16 + t] += 1.0f;
    }
  }
}

#line 2 "host_early_return.okl"
void _okl_entry_guarded(void **args, volatile sig_atomic_t *stop) {
  guarded(*((const int *) args[0]), (float *) args[1], stop);
}
