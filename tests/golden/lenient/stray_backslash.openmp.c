#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "stray_backslash.okl"
static void sumPairs(const int n, const float *a, const float *b, float *c, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for simd if(parallel: 1 < n)
#line 4 "stray_backslash.okl"
  for (int i = 0; i < n; ++i) {
    c[i] = a[i] + b[i];
  }
}

#line 3 "stray_backslash.okl"
void _okl_entry_sumPairs(void **args, volatile sig_atomic_t *stop) {
  sumPairs(*((const int *) args[0]), (const float *) args[1], (const float *) args[2], (float *) args[3], stop);
}
