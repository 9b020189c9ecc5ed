#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "same_runtime_extent.okl"
static void sameExtent(const int nb, const int m, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 3 "same_runtime_extent.okl"
  for (int b = 0; b < nb; ++b) {
#line 3 "same_runtime_extent.okl"
    if (*_okl_stop)
      continue;
#line 4 "same_runtime_extent.okl"
    float s[256];
    #pragma GCC ivdep
#line 5 "same_runtime_extent.okl"
    for (int t = 0; t < m; ++t) {
      s[t] = x[b * m + t];
    }
    #pragma GCC ivdep
#line 8 "same_runtime_extent.okl"
    for (int t = 0; t < m; ++t) {
      y[b * m + t] = s[m - 1 - t];
    }
  }
}

#line 2 "same_runtime_extent.okl"
void _okl_entry_sameExtent(void **args, volatile sig_atomic_t *stop) {
  sameExtent(*((const int *) args[0]), *((const int *) args[1]), (const float *) args[2], (float *) args[3], stop);
}
