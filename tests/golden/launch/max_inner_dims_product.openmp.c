#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "max_inner_dims_product.okl"
static void wideRows(const int n, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 5 "max_inner_dims_product.okl"
  for (int b = 0; b < n; ++b) {
#line 5 "max_inner_dims_product.okl"
    if (*_okl_stop)
      continue;
#line 6 "max_inner_dims_product.okl"
    float r[256];
    for (int j = 0; j < 16; ++j) {
      #pragma GCC ivdep
#line 8 "max_inner_dims_product.okl"
      for (int i = 0; i < 8; ++i) {
        r[i + 16 * j] = x[(b * 16 + j) * 16 + i];
      }
      #pragma GCC ivdep
#line 11 "max_inner_dims_product.okl"
      for (int i = 0; i < 16; ++i) {
        if (i >= 8) {
          r[i + 16 * j] = 0.5f * x[(b * 16 + j) * 16 + i];
        }
        y[(b * 16 + j) * 16 + i] = r[i + 16 * j] + 1.0f;
      }
    }
  }
}

#line 4 "max_inner_dims_product.okl"
void _okl_entry_wideRows(void **args, volatile sig_atomic_t *stop) {
  wideRows(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
