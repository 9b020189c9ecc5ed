#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "opencl_name_collision.okl"
static void twoScratch(const int nb, const int *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 5 "opencl_name_collision.okl"
  for (int b = 0; b < nb; ++b) {
#line 5 "opencl_name_collision.okl"
    if (*_okl_stop)
      continue;
    {
#line 7 "opencl_name_collision.okl"
      int s[32];
      #pragma GCC ivdep
#line 8 "opencl_name_collision.okl"
      for (int t = 0; t < 32; ++t) {
        s[t] = x[b * 32 + t];
      }
      #pragma GCC ivdep
#line 11 "opencl_name_collision.okl"
      for (int t = 0; t < 32; ++t) {
        y[b * 32 + t] = (float) s[31 - t];
      }
    }
    {
      float s[32];
      #pragma GCC ivdep
#line 17 "opencl_name_collision.okl"
      for (int t = 0; t < 32; ++t) {
        s[t] = y[b * 32 + t] * 2.0f;
      }
      #pragma GCC ivdep
#line 20 "opencl_name_collision.okl"
      for (int t = 0; t < 32; ++t) {
        y[b * 32 + t] = s[(t + 1) % 32];
      }
    }
  }
}

#line 4 "opencl_name_collision.okl"
void _okl_entry_twoScratch(void **args, volatile sig_atomic_t *stop) {
  twoScratch(*((const int *) args[0]), (const int *) args[1], (float *) args[2], stop);
}
