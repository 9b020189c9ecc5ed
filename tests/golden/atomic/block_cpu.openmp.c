#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "block_cpu.okl"
static void pairUpdate(const int n, const float *x, float *sum, int *count, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 5 "block_cpu.okl"
  for (int b = 0; b < n; ++b) {
#line 5 "block_cpu.okl"
    if (*_okl_stop)
      continue;
#line 6 "block_cpu.okl"
    for (int t = 0; t < 16; ++t) {
      const float v = x[b * 16 + t];
      if (v > 0.0f) {
        {
          #pragma omp critical
          {
#line 10 "block_cpu.okl"
            sum[0] += v;
            count[0] += 1;
          }
        }
      }
    }
  }
}

#line 4 "block_cpu.okl"
void _okl_entry_pairUpdate(void **args, volatile sig_atomic_t *stop) {
  pairUpdate(*((const int *) args[0]), (const float *) args[1], (float *) args[2], (int *) args[3], stop);
}
