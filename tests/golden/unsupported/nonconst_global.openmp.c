#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "nonconst_global.okl"
static float counter_scale = 1.0f;

static void useGlobal(const int n, float *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 5 "nonconst_global.okl"
  for (int b = 0; b < n; ++b) {
#line 5 "nonconst_global.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 6 "nonconst_global.okl"
    for (int t = 0; t < 16; ++t) {
      x[b * 16 + t] *= counter_scale;
    }
  }
}

#line 4 "nonconst_global.okl"
void _okl_entry_useGlobal(void **args, volatile sig_atomic_t *stop) {
  useGlobal(*((const int *) args[0]), (float *) args[1], stop);
}
