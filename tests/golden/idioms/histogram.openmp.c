#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 5 "histogram.okl"
static void histogram(const int n, const float lo, const float width, const float *x, unsigned int *bins, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ((n + 255) / 256))
  for (int g = 0; g < (n + 255) / 256; ++g) {
#line 7 "histogram.okl"
    if (*_okl_stop)
      continue;
#line 8 "histogram.okl"
    unsigned int s_bins[16];
    #pragma GCC ivdep
#line 9 "histogram.okl"
    for (int t = 0; t < 16; ++t)
      s_bins[t] = 0;
#line 12 "histogram.okl"
    for (int t = 0; t < ((256 < n - g * 256) ? (256) : (n - g * 256)); ++t) {
      const int i = g * 256 + t;
      {
        int k = (int) floorf((x[i] - lo) / width);
        k = (k < 0) ? (0) : ((k >= 16) ? (16 - 1) : (k));
        {
          #pragma omp atomic
#line 17 "histogram.okl"
          s_bins[k] += 1;
        }
      }
    }
#line 20 "histogram.okl"
    for (int t = 0; t < 16; ++t) {
      {
        #pragma omp atomic
#line 22 "histogram.okl"
        bins[t] += s_bins[t];
      }
    }
  }
}

#line 5 "histogram.okl"
void _okl_entry_histogram(void **args, volatile sig_atomic_t *stop) {
  histogram(*((const int *) args[0]), *((const float *) args[1]), *((const float *) args[2]), (const float *) args[3], (unsigned int *) args[4], stop);
}
