#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "step.okl"
static void everyOther(const int n, float *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for simd
#line 3 "step.okl"
  for (int i = 0; i < n; i += 2) {
    x[i] = 0.0f;
  }
}

#line 2 "step.okl"
void _okl_entry_everyOther(void **args, volatile sig_atomic_t *stop) {
  everyOther(*((const int *) args[0]), (float *) args[1], stop);
}
