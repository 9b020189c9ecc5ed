#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "unsigned_global.okl"
static void unsignedOps(const int n, const unsigned int *x, unsigned int *acc, volatile sig_atomic_t *_okl_stop) {
  for (int b = 0; b < n; ++b) {
#line 3 "unsigned_global.okl"
    if (*_okl_stop)
      break;
#line 4 "unsigned_global.okl"
    for (int t = 0; t < 32; ++t) {
      const unsigned int v = x[b * 32 + t];
      *acc += v;
      acc[1] -= v;
      acc[2]++;
      --acc[3];
      acc[4] &= v;
      acc[5] |= v;
      acc[6] ^= v;
      acc[7] = v;
    }
  }
}

#line 2 "unsigned_global.okl"
void _okl_entry_unsignedOps(void **args, volatile sig_atomic_t *stop) {
  unsignedOps(*((const int *) args[0]), (const unsigned int *) args[1], (unsigned int *) args[2], stop);
}
