#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "multiply.okl"
static void product(const int n, const double *x, double *p, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 3 "multiply.okl"
  for (int b = 0; b < n; ++b) {
#line 3 "multiply.okl"
    if (*_okl_stop)
      continue;
#line 4 "multiply.okl"
    for (int t = 0; t < 8; ++t) {
      {
        #pragma omp atomic
#line 5 "multiply.okl"
        p[0] *= x[b * 8 + t];
      }
    }
  }
}

#line 2 "multiply.okl"
void _okl_entry_product(void **args, volatile sig_atomic_t *stop) {
  product(*((const int *) args[0]), (const double *) args[1], (double *) args[2], stop);
}
