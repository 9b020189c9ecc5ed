#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "iterator_types.okl"
static void wide(const long n, const unsigned int m, double *x, volatile sig_atomic_t *_okl_stop) {
  for (long b = 0; b < n; ++b) {
#line 3 "iterator_types.okl"
    if (*_okl_stop)
      break;
    #pragma GCC ivdep
#line 4 "iterator_types.okl"
    for (unsigned int t = 0; t < 32u; ++t) {
      x[b * 32 + t] = 0.5 * t;
    }
  }
  for (size_t b = 0; b < m; ++b) {
#line 8 "iterator_types.okl"
    if (*_okl_stop)
      break;
    #pragma GCC ivdep
#line 9 "iterator_types.okl"
    for (size_t t = 0; t < 8; ++t) {
      x[b * 8 + t] += 1.0;
    }
  }
  for (unsigned long b = 0; b < ((unsigned long) n); b += 2) {
#line 13 "iterator_types.okl"
    if (*_okl_stop)
      break;
    #pragma GCC ivdep
#line 14 "iterator_types.okl"
    for (long t = 0; t < 16; t += 1) {
      x[b * 16 + t] *= 2.0;
    }
  }
}

#line 2 "iterator_types.okl"
void _okl_entry_wide(void **args, volatile sig_atomic_t *stop) {
  wide(*((const long *) args[0]), *((const unsigned int *) args[1]), (double *) args[2], stop);
}
