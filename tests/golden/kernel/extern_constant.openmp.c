#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "extern_constant.okl"
static const int weights[4] = {1, 2, 3, 4};

static void weigh(const int n, const int *x, int *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 7 "extern_constant.okl"
  for (int b = 0; b < n; ++b) {
#line 7 "extern_constant.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 8 "extern_constant.okl"
    for (int i = 0; i < 4; ++i) {
      y[b * 4 + i] = weights[i] * x[b * 4 + i];
    }
  }
}

#line 6 "extern_constant.okl"
void _okl_entry_weigh(void **args, volatile sig_atomic_t *stop) {
  weigh(*((const int *) args[0]), (const int *) args[1], (int *) args[2], stop);
}
