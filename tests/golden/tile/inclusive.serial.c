#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "inclusive.okl"
static void upTo(const int last, float *x, volatile sig_atomic_t *_okl_stop) {
  #pragma GCC ivdep
#line 3 "inclusive.okl"
  for (int i = 1; i <= last; ++i) {
    x[i] = 1.0f / i;
  }
}

#line 2 "inclusive.okl"
void _okl_entry_upTo(void **args, volatile sig_atomic_t *stop) {
  upTo(*((const int *) args[0]), (float *) args[1], stop);
}
