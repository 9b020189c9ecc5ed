#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "long_global.okl"
static void longOps(const int n, const long *x, long *acc, unsigned long *uacc, volatile sig_atomic_t *_okl_stop) {
  for (int b = 0; b < n; ++b) {
#line 3 "long_global.okl"
    if (*_okl_stop)
      break;
#line 4 "long_global.okl"
    for (int t = 0; t < 32; ++t) {
      const long v = x[b * 32 + t];
      acc[0] += v;
      acc[1] -= v;
      acc[2]++;
      acc[3]--;
      acc[4] &= v;
      acc[5] |= v;
      acc[6] ^= v;
      acc[7] = v;
      uacc[0] += (unsigned long) v;
      uacc[1] -= 1;
    }
  }
}

#line 2 "long_global.okl"
void _okl_entry_longOps(void **args, volatile sig_atomic_t *stop) {
  longOps(*((const int *) args[0]), (const long *) args[1], (long *) args[2], (unsigned long *) args[3], stop);
}
