#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "semicolon_at_line_end.okl"
static void clampTo(float *v, const float hi) {
#line 3 "semicolon_at_line_end.okl"
  if ((*v) > hi) *v = hi;
}

#line 5 "semicolon_at_line_end.okl"
static void clampAll(const int n, float *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for simd if(parallel: 1 < n)
#line 6 "semicolon_at_line_end.okl"
  for (int i = 0; i < n; ++i) {
    clampTo(&x[i], 1.0f);
    x[i] *= 2.0f;
  }
}

#line 5 "semicolon_at_line_end.okl"
void _okl_entry_clampAll(void **args, volatile sig_atomic_t *stop) {
  clampAll(*((const int *) args[0]), (float *) args[1], stop);
}
