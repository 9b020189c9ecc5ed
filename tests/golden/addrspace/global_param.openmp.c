#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "global_param.okl"
static float weighted(const int i, const float *w, const float *x, const float scale) {
#line 6 "global_param.okl"
  return scale * w[i] * x[i];
}

static void applyWeights(const int n, const float *w, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for simd if(parallel: 1 < n)
#line 10 "global_param.okl"
  for (int i = 0; i < n; ++i) {
    y[i] = weighted(i, w, x, 2.0f);
  }
}

#line 9 "global_param.okl"
void _okl_entry_applyWeights(void **args, volatile sig_atomic_t *stop) {
  applyWeights(*((const int *) args[0]), (const float *) args[1], (const float *) args[2], (float *) args[3], stop);
}
