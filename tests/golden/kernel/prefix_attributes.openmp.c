#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "prefix_attributes.okl"
static void copyPrefix(const int n, const double * restrict src, double * restrict dst, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ((n + 31) / 32))
#line 4 "prefix_attributes.okl"
  for (int b = 0; b < (n + 31) / 32; ++b) {
#line 4 "prefix_attributes.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 5 "prefix_attributes.okl"
    for (int t = 0; t < ((32 < n - b * 32) ? (32) : (n - b * 32)); ++t) {
      const int i = b * 32 + t;
      dst[i] = src[i];
    }
  }
}

#line 3 "prefix_attributes.okl"
void _okl_entry_copyPrefix(void **args, volatile sig_atomic_t *stop) {
  copyPrefix(*((const int *) args[0]), (const double *) args[1], (double *) args[2], stop);
}
