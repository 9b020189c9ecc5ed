#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "casts.okl"
static float *row(float *a, const int i) {
#line 2 "casts.okl"
  return a + 4 * i;
}

#line 4 "casts.okl"
static void castValues(const int n, const double *x, int *truncated, float *rows, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ((n + 31) / 32))
#line 5 "casts.okl"
  for (int b = 0; b < (n + 31) / 32; ++b) {
#line 5 "casts.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 6 "casts.okl"
    for (int t = 0; t < ((32 < n - b * 32) ? (32) : (n - b * 32)); ++t) {
      const int i = b * 32 + t;
      {
        truncated[i] = ((int) x[i]) + 2 * ((int) (x[i] * 0.5));
        float *r = (float *) row(rows, i);
        r[0] = ((float *) r)[1] + ((float) x[i]);
      }
    }
  }
}

#line 4 "casts.okl"
void _okl_entry_castValues(void **args, volatile sig_atomic_t *stop) {
  castValues(*((const int *) args[0]), (const double *) args[1], (int *) args[2], (float *) args[3], stop);
}
