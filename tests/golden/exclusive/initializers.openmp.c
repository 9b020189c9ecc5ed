#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "initializers.okl"
static void initialised(const int nb, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 3 "initializers.okl"
  for (int b = 0; b < nb; ++b) {
#line 3 "initializers.okl"
    if (*_okl_stop)
      continue;
#line 4 "initializers.okl"
    float acc[8];
#line 4 "initializers.okl"
    for (int _okl_slot = 0; _okl_slot < 8; ++_okl_slot)
      acc[_okl_slot] = 0.0f;
#line 4 "initializers.okl"
    float scale[8];
#line 4 "initializers.okl"
    for (int _okl_slot = 0; _okl_slot < 8; ++_okl_slot)
      scale[_okl_slot] = 2.0f;
#line 5 "initializers.okl"
    int count[8][2] = {{0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}};
    #pragma GCC ivdep
#line 6 "initializers.okl"
    for (int t = 0; t < 8; ++t) {
      acc[t] += scale[t] * x[b * 8 + t];
      count[t][1] += t;
    }
    #pragma GCC ivdep
#line 10 "initializers.okl"
    for (int t = 0; t < 8; ++t) {
      y[b * 8 + t] = acc[t] + count[t][0] + count[t][1];
    }
  }
}

#line 2 "initializers.okl"
void _okl_entry_initialised(void **args, volatile sig_atomic_t *stop) {
  initialised(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
