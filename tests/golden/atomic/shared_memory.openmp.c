#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "shared_memory.okl"
static void sharedOps(const int nb, const int *keys, const double *w, int *counts, double *sums, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
  for (int b = 0; b < nb; ++b) {
#line 4 "shared_memory.okl"
    if (*_okl_stop)
      continue;
#line 5 "shared_memory.okl"
    int s_count[8];
    unsigned int s_bits[1];
    float s_max[1];
    double s_sum[8];
    #pragma GCC ivdep
#line 9 "shared_memory.okl"
    for (int t = 0; t < 64; ++t) {
      if (t < 8) {
        s_count[t] = 0;
        s_sum[t] = 0.0;
      }
      if (t == 0) {
        s_bits[0] = 0u;
        s_max[0] = 0.0f;
      }
    }
    for (int t = 0; t < 64; ++t) {
      const int k = keys[b * 64 + t] & 7;
      {
        #pragma omp atomic
#line 21 "shared_memory.okl"
        s_count[k] += 1;
      }
      {
        #pragma omp atomic
#line 22 "shared_memory.okl"
        s_count[(k + 1) & 7]--;
      }
      {
        #pragma omp atomic
#line 23 "shared_memory.okl"
        s_bits[0] |= 1u << k;
      }
      {
        #pragma omp atomic
#line 24 "shared_memory.okl"
        s_bits[0] ^= 1u;
      }
      {
        #pragma omp atomic write
#line 25 "shared_memory.okl"
        s_max[0] = (float) (k >= 0);
      }
      {
        #pragma omp atomic
#line 26 "shared_memory.okl"
        s_sum[k] += w[b * 64 + t];
      }
      {
        #pragma omp atomic
#line 27 "shared_memory.okl"
        s_sum[7 - k] -= 1.0;
      }
    }
#line 29 "shared_memory.okl"
    for (int t = 0; t < 8; ++t) {
      {
        #pragma omp atomic
#line 31 "shared_memory.okl"
        counts[t] += s_count[t] + ((int) s_bits[0]) + ((int) s_max[0]);
      }
      {
        #pragma omp atomic
#line 32 "shared_memory.okl"
        sums[t] += s_sum[t];
      }
    }
  }
}

#line 2 "shared_memory.okl"
void _okl_entry_sharedOps(void **args, volatile sig_atomic_t *stop) {
  sharedOps(*((const int *) args[0]), (const int *) args[1], (const double *) args[2], (int *) args[3], (double *) args[4], stop);
}
