#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "stray_semicolons.okl"
static void divergence(const int n, const float *u, const float *v, const float *w, float *div, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
  for (int b = 0; b < n; ++b) {
#line 4 "stray_semicolons.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 5 "stray_semicolons.okl"
    for (int t = 0; t < 16; ++t) {
      const int id = b * 16 + t;
      const float jw = 0.5f;
      div[id] = jw * (u[id] + 1.0f + v[id] * 2.0f + w[id]);
    }
  }
}

#line 2 "stray_semicolons.okl"
void _okl_entry_divergence(void **args, volatile sig_atomic_t *stop) {
  divergence(*((const int *) args[0]), (const float *) args[1], (const float *) args[2], (const float *) args[3], (float *) args[4], stop);
}
