#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "outer_inner.okl"
static void saxpy(const int n, const float a, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for simd if(parallel: 1 < n)
#line 3 "outer_inner.okl"
  for (int i = 0; i < n; ++i) {
    y[i] = a * x[i] + y[i];
  }
}

#line 2 "outer_inner.okl"
void _okl_entry_saxpy(void **args, volatile sig_atomic_t *stop) {
  saxpy(*((const int *) args[0]), *((const float *) args[1]), (const float *) args[2], (float *) args[3], stop);
}
