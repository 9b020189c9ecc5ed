#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "dim_order.okl"
static void transposeView(const int n, const int m, const double *S, double *T, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < m)
  for (int j = 0; j < m; ++j) {
#line 5 "dim_order.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 6 "dim_order.okl"
    for (int i = 0; i < n; ++i) {
      T[j + m * i] = S[i + n * j];
    }
  }
}

#line 3 "dim_order.okl"
void _okl_entry_transposeView(void **args, volatile sig_atomic_t *stop) {
  transposeView(*((const int *) args[0]), *((const int *) args[1]), (const double *) args[2], (double *) args[3], stop);
}
