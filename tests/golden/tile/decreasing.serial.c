#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "decreasing.okl"
static void downTiles(const int n, int *x, volatile sig_atomic_t *_okl_stop) {
  #pragma GCC ivdep
#line 3 "decreasing.okl"
  for (int i = n - 1; i >= 0; --i) {
    x[i] = n - 1 - i;
  }
}

#line 2 "decreasing.okl"
void _okl_entry_downTiles(void **args, volatile sig_atomic_t *stop) {
  downTiles(*((const int *) args[0]), (int *) args[1], stop);
}
