#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "float_global.okl"
static void floatOps(const int n, const float *x, float *acc, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 4 "float_global.okl"
  for (int b = 0; b < n; ++b) {
#line 4 "float_global.okl"
    if (*_okl_stop)
      continue;
#line 5 "float_global.okl"
    for (int t = 0; t < 64; ++t) {
      const float v = x[b * 64 + t];
      {
        #pragma omp atomic
#line 7 "float_global.okl"
        acc[0] += v;
      }
      {
        #pragma omp atomic
#line 8 "float_global.okl"
        acc[1] -= 0.5f * v;
      }
      {
        #pragma omp atomic
#line 9 "float_global.okl"
        acc[2]++;
      }
      {
        #pragma omp atomic
#line 10 "float_global.okl"
        acc[3]--;
      }
      {
        #pragma omp atomic write
#line 11 "float_global.okl"
        acc[4] = v;
      }
    }
  }
}

#line 3 "float_global.okl"
void _okl_entry_floatOps(void **args, volatile sig_atomic_t *stop) {
  floatOps(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
