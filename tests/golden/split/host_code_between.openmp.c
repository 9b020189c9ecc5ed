#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "host_code_between.okl"
static void pipeline(const int n, const float alpha, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  const int blocks = (n + 63) / 64;
  const float scale = 2.0f * alpha;
  #pragma omp parallel for if(parallel: 1 < blocks)
#line 6 "host_code_between.okl"
  for (int b = 0; b < blocks; ++b) {
#line 6 "host_code_between.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 7 "host_code_between.okl"
    for (int t = 0; t < ((64 < n - b * 64) ? (64) : (n - b * 64)); ++t) {
      const int i = b * 64 + t;
      y[i] = scale * x[i];
    }
  }
  const int half = blocks / 2;
  long offset = ((long) half) * 64;
  #pragma omp parallel for if(parallel: 1 < half)
#line 14 "host_code_between.okl"
  for (int b = 0; b < half; ++b) {
#line 14 "host_code_between.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 15 "host_code_between.okl"
    for (int t = 0; t < ((64 < n - (offset + b * 64)) ? (64) : (n - (offset + b * 64))); ++t) {
      const long i = offset + b * 64 + t;
      y[i] += alpha;
    }
  }
}

#line 3 "host_code_between.okl"
void _okl_entry_pipeline(void **args, volatile sig_atomic_t *stop) {
  pipeline(*((const int *) args[0]), *((const float *) args[1]), (const float *) args[2], (float *) args[3], stop);
}
