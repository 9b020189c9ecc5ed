#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "int_global.okl"
static void intOps(const int n, const int *x, int *acc, volatile sig_atomic_t *_okl_stop) {
  for (int b = 0; b < n; ++b) {
#line 3 "int_global.okl"
    if (*_okl_stop)
      break;
#line 4 "int_global.okl"
    for (int t = 0; t < 32; ++t) {
      const int v = x[b * 32 + t];
      acc[0] += v;
      acc[1] -= v;
      acc[2]++;
      ++acc[3];
      acc[4]--;
      --acc[5];
      acc[6] &= v;
      acc[7] |= v;
      acc[8] ^= v;
      acc[9] = v;
    }
  }
}

#line 2 "int_global.okl"
void _okl_entry_intOps(void **args, volatile sig_atomic_t *stop) {
  intOps(*((const int *) args[0]), (const int *) args[1], (int *) args[2], stop);
}
