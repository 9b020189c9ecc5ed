#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "exclusive_scalar.okl"
static void keepValue(const int nb, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 3 "exclusive_scalar.okl"
  for (int b = 0; b < nb; ++b) {
#line 3 "exclusive_scalar.okl"
    if (*_okl_stop)
      continue;
#line 4 "exclusive_scalar.okl"
    float v[32];
    #pragma GCC ivdep
#line 5 "exclusive_scalar.okl"
    for (int t = 0; t < 32; ++t) {
      v[t] = x[b * 32 + t];
    }
    #pragma GCC ivdep
#line 8 "exclusive_scalar.okl"
    for (int t = 0; t < 32; ++t) {
      y[b * 32 + t] = v[t] * v[t];
    }
  }
}

#line 2 "exclusive_scalar.okl"
void _okl_entry_keepValue(void **args, volatile sig_atomic_t *stop) {
  keepValue(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
