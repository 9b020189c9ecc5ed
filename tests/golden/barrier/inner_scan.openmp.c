#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "inner_scan.okl"
static void scan(const int nb, const int *x, int *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 5 "inner_scan.okl"
  for (int b = 0; b < nb; ++b) {
#line 5 "inner_scan.okl"
    if (*_okl_stop)
      continue;
#line 6 "inner_scan.okl"
    int s[128];
#line 8 "inner_scan.okl"
    const int n = 128;
    #pragma GCC ivdep
#line 7 "inner_scan.okl"
    for (int t = 0; t < 128; ++t) {
#line 9 "inner_scan.okl"
      s[t] = x[b * n + t];
    }
#line 10 "inner_scan.okl"
    for (int d = 1; d < n; d *= 2) {
#line 12 "inner_scan.okl"
      int v[128];
      #pragma GCC ivdep
#line 7 "inner_scan.okl"
      for (int t = 0; t < 128; ++t) {
#line 12 "inner_scan.okl"
        v[t] = 0;
        if (t >= d) v[t] = s[t - d];
      }
      #pragma GCC ivdep
#line 7 "inner_scan.okl"
      for (int t = 0; t < 128; ++t) {
#line 15 "inner_scan.okl"
        s[t] += v[t];
      }
    }
    #pragma GCC ivdep
#line 7 "inner_scan.okl"
    for (int t = 0; t < 128; ++t) {
#line 18 "inner_scan.okl"
      y[b * n + t] = s[t];
    }
  }
}

#line 4 "inner_scan.okl"
void _okl_entry_scan(void **args, volatile sig_atomic_t *stop) {
  scan(*((const int *) args[0]), (const int *) args[1], (int *) args[2], stop);
}
