#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "shared_param_global.okl"
static void set(double *s, const int i) {
  s[i] = 1.0;
}

static void k(const int n, double *a, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 8 "shared_param_global.okl"
  for (int b = 0; b < n; ++b) {
#line 8 "shared_param_global.okl"
    if (*_okl_stop)
      continue;
#line 9 "shared_param_global.okl"
    double s[4];
    #pragma GCC ivdep
#line 10 "shared_param_global.okl"
    for (int i = 0; i < 4; ++i) {
      set(s, i);
      set(a + 4 * b, i);
    }
  }
}

#line 7 "shared_param_global.okl"
void _okl_entry_k(void **args, volatile sig_atomic_t *stop) {
  k(*((const int *) args[0]), (double *) args[1], stop);
}
