#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "size_t_param.okl"
static void sized(const size_t n, float *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 4 "size_t_param.okl"
  for (size_t b = 0; b < n; ++b) {
#line 4 "size_t_param.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 5 "size_t_param.okl"
    for (int t = 0; t < 16; ++t) {
      x[b * 16 + t] = 0.0f;
    }
  }
}

#line 3 "size_t_param.okl"
void _okl_entry_sized(void **args, volatile sig_atomic_t *stop) {
  sized(*((const size_t *) args[0]), (float *) args[1], stop);
}
