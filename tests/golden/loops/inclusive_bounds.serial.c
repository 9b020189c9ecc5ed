#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "inclusive_bounds.okl"
static void inclusive(const int last, int *hits, volatile sig_atomic_t *_okl_stop) {
  for (int b = 1; b <= last; ++b) {
#line 3 "inclusive_bounds.okl"
    if (*_okl_stop)
      break;
    #pragma GCC ivdep
#line 4 "inclusive_bounds.okl"
    for (int t = 7; t >= 0; --t) {
      hits[(b - 1) * 8 + t] = b;
    }
  }
  for (int b = 0; b <= last - 1; b++) {
#line 8 "inclusive_bounds.okl"
    if (*_okl_stop)
      break;
    #pragma GCC ivdep
#line 9 "inclusive_bounds.okl"
    for (int t = 0; t <= 7; t++) {
      hits[b * 8 + t] += t;
    }
  }
}

#line 2 "inclusive_bounds.okl"
void _okl_entry_inclusive(void **args, volatile sig_atomic_t *stop) {
  inclusive(*((const int *) args[0]), (int *) args[1], stop);
}
