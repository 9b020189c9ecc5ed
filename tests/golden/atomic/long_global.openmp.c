#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "long_global.okl"
static void longOps(const int n, const long *x, long *acc, unsigned long *uacc, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 3 "long_global.okl"
  for (int b = 0; b < n; ++b) {
#line 3 "long_global.okl"
    if (*_okl_stop)
      continue;
#line 4 "long_global.okl"
    for (int t = 0; t < 32; ++t) {
      const long v = x[b * 32 + t];
      {
        #pragma omp atomic
#line 6 "long_global.okl"
        acc[0] += v;
      }
      {
        #pragma omp atomic
#line 7 "long_global.okl"
        acc[1] -= v;
      }
      {
        #pragma omp atomic
#line 8 "long_global.okl"
        acc[2]++;
      }
      {
        #pragma omp atomic
#line 9 "long_global.okl"
        acc[3]--;
      }
      {
        #pragma omp atomic
#line 10 "long_global.okl"
        acc[4] &= v;
      }
      {
        #pragma omp atomic
#line 11 "long_global.okl"
        acc[5] |= v;
      }
      {
        #pragma omp atomic
#line 12 "long_global.okl"
        acc[6] ^= v;
      }
      {
        #pragma omp atomic write
#line 13 "long_global.okl"
        acc[7] = v;
      }
      {
        #pragma omp atomic
#line 14 "long_global.okl"
        uacc[0] += (unsigned long) v;
      }
      {
        #pragma omp atomic
#line 15 "long_global.okl"
        uacc[1] -= 1;
      }
    }
  }
}

#line 2 "long_global.okl"
void _okl_entry_longOps(void **args, volatile sig_atomic_t *stop) {
  longOps(*((const int *) args[0]), (const long *) args[1], (long *) args[2], (unsigned long *) args[3], stop);
}
