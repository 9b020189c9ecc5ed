#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "outer_in_host_loop.okl"
static void smooth(const int n, const int iterations, float *u, float *tmp, volatile sig_atomic_t *_okl_stop) {
  for (int it = 0; it < iterations; ++it) {
    const float w = 1.0f / (it + 2);
    #pragma omp parallel if(parallel: 1 < n)
    {
      #pragma omp for
#line 6 "outer_in_host_loop.okl"
      for (int b = 0; b < n; ++b) {
#line 6 "outer_in_host_loop.okl"
        if (*_okl_stop)
          continue;
        #pragma GCC ivdep
#line 7 "outer_in_host_loop.okl"
        for (int t = 0; t < 32; ++t) {
          const int i = b * 32 + t;
          tmp[i] = u[i] + w * (u[(i + 1) % (32 * n)] - u[i]);
        }
      }
      #pragma omp for
#line 12 "outer_in_host_loop.okl"
      for (int b = 0; b < n; ++b) {
#line 12 "outer_in_host_loop.okl"
        if (*_okl_stop)
          continue;
        #pragma GCC ivdep
#line 13 "outer_in_host_loop.okl"
        for (int t = 0; t < 32; ++t) {
          u[b * 32 + t] = tmp[b * 32 + t] + it;
        }
      }
    }
  }
}

#line 3 "outer_in_host_loop.okl"
void _okl_entry_smooth(void **args, volatile sig_atomic_t *stop) {
  smooth(*((const int *) args[0]), *((const int *) args[1]), (float *) args[2], (float *) args[3], stop);
}
