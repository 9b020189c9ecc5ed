#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "int_global.okl"
static void intOps(const int n, const int *x, int *acc, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 3 "int_global.okl"
  for (int b = 0; b < n; ++b) {
#line 3 "int_global.okl"
    if (*_okl_stop)
      continue;
#line 4 "int_global.okl"
    for (int t = 0; t < 32; ++t) {
      const int v = x[b * 32 + t];
      {
        #pragma omp atomic
#line 6 "int_global.okl"
        acc[0] += v;
      }
      {
        #pragma omp atomic
#line 7 "int_global.okl"
        acc[1] -= v;
      }
      {
        #pragma omp atomic
#line 8 "int_global.okl"
        acc[2]++;
      }
      {
        #pragma omp atomic
#line 9 "int_global.okl"
        ++acc[3];
      }
      {
        #pragma omp atomic
#line 10 "int_global.okl"
        acc[4]--;
      }
      {
        #pragma omp atomic
#line 11 "int_global.okl"
        --acc[5];
      }
      {
        #pragma omp atomic
#line 12 "int_global.okl"
        acc[6] &= v;
      }
      {
        #pragma omp atomic
#line 13 "int_global.okl"
        acc[7] |= v;
      }
      {
        #pragma omp atomic
#line 14 "int_global.okl"
        acc[8] ^= v;
      }
      {
        #pragma omp atomic write
#line 15 "int_global.okl"
        acc[9] = v;
      }
    }
  }
}

#line 2 "int_global.okl"
void _okl_entry_intOps(void **args, volatile sig_atomic_t *stop) {
  intOps(*((const int *) args[0]), (const int *) args[1], (int *) args[2], stop);
}
