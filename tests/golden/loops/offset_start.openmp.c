#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "offset_start.okl"
static void interior(const int n, const float *u, float *lap, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 2 < (n - 1))
#line 3 "offset_start.okl"
  for (int b = 1; b < n - 1; ++b) {
#line 3 "offset_start.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 4 "offset_start.okl"
    for (int t = 2; t < 18; ++t) {
      const int i = b * 20 + t;
      lap[i] = u[i - 1] - 2.0f * u[i] + u[i + 1];
    }
  }
}

#line 2 "offset_start.okl"
void _okl_entry_interior(void **args, volatile sig_atomic_t *stop) {
  interior(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
