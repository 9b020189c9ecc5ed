#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "float_global.okl"
static void floatOps(const int n, const float *x, float *acc, volatile sig_atomic_t *_okl_stop) {
  for (int b = 0; b < n; ++b) {
#line 4 "float_global.okl"
    if (*_okl_stop)
      break;
#line 5 "float_global.okl"
    for (int t = 0; t < 64; ++t) {
      const float v = x[b * 64 + t];
      acc[0] += v;
      acc[1] -= 0.5f * v;
      acc[2]++;
      acc[3]--;
      acc[4] = v;
    }
  }
}

#line 3 "float_global.okl"
void _okl_entry_floatOps(void **args, volatile sig_atomic_t *stop) {
  floatOps(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
