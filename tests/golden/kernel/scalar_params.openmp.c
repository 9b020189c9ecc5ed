#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "scalar_params.okl"
static void axpby(const int n, const unsigned int stride, const long offset, const float alpha, const double beta, const char flag, const short tag, const float *x, double *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 5 "scalar_params.okl"
  for (int b = 0; b < n; ++b) {
#line 5 "scalar_params.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 6 "scalar_params.okl"
    for (int t = 0; t < 32; ++t) {
      const long i = offset + ((long) (b * 32 + t)) * stride;
      if (flag) {
        y[i] = alpha * x[i] + beta * y[i] + tag;
      } else {
        y[i] = beta * y[i];
      }
    }
  }
}

#line 2 "scalar_params.okl"
void _okl_entry_axpby(void **args, volatile sig_atomic_t *stop) {
  axpby(*((const int *) args[0]), *((const unsigned int *) args[1]), *((const long *) args[2]), *((const float *) args[3]), *((const double *) args[4]), *((const char *) args[5]), *((const short *) args[6]), (const float *) args[7], (double *) args[8], stop);
}
