#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "sibling_runtime_extent.okl"
static void mixed(const int nb, const int m, const float *x, float *y, float *z, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 5 "sibling_runtime_extent.okl"
  for (int b = 0; b < nb; ++b) {
#line 5 "sibling_runtime_extent.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 6 "sibling_runtime_extent.okl"
    for (int t = 0; t < 32; ++t) {
      y[b * 32 + t] = x[b * 32 + t];
    }
    #pragma GCC ivdep
#line 9 "sibling_runtime_extent.okl"
    for (int t = 0; t < m; ++t) {
      z[b * m + t] = 0.0f;
    }
  }
}

#line 4 "sibling_runtime_extent.okl"
void _okl_entry_mixed(void **args, volatile sig_atomic_t *stop) {
  mixed(*((const int *) args[0]), *((const int *) args[1]), (const float *) args[2], (float *) args[3], (float *) args[4], stop);
}
