#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "unsigned_global.okl"
static void unsignedOps(const int n, const unsigned int *x, unsigned int *acc, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 3 "unsigned_global.okl"
  for (int b = 0; b < n; ++b) {
#line 3 "unsigned_global.okl"
    if (*_okl_stop)
      continue;
#line 4 "unsigned_global.okl"
    for (int t = 0; t < 32; ++t) {
      const unsigned int v = x[b * 32 + t];
      {
        #pragma omp atomic
#line 6 "unsigned_global.okl"
        *acc += v;
      }
      {
        #pragma omp atomic
#line 7 "unsigned_global.okl"
        acc[1] -= v;
      }
      {
        #pragma omp atomic
#line 8 "unsigned_global.okl"
        acc[2]++;
      }
      {
        #pragma omp atomic
#line 9 "unsigned_global.okl"
        --acc[3];
      }
      {
        #pragma omp atomic
#line 10 "unsigned_global.okl"
        acc[4] &= v;
      }
      {
        #pragma omp atomic
#line 11 "unsigned_global.okl"
        acc[5] |= v;
      }
      {
        #pragma omp atomic
#line 12 "unsigned_global.okl"
        acc[6] ^= v;
      }
      {
        #pragma omp atomic write
#line 13 "unsigned_global.okl"
        acc[7] = v;
      }
    }
  }
}

#line 2 "unsigned_global.okl"
void _okl_entry_unsignedOps(void **args, volatile sig_atomic_t *stop) {
  unsignedOps(*((const int *) args[0]), (const unsigned int *) args[1], (unsigned int *) args[2], stop);
}
