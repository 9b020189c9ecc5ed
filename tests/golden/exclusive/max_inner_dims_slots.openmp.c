#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "max_inner_dims_slots.okl"
static void bounded(const int nb, const int bs, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 4 "max_inner_dims_slots.okl"
  for (int b = 0; b < nb; ++b) {
#line 4 "max_inner_dims_slots.okl"
    if (*_okl_stop)
      continue;
    int _okl_exclusive_index = 0;
#line 5 "max_inner_dims_slots.okl"
    float r[128];
    _okl_exclusive_index = 0;
#line 6 "max_inner_dims_slots.okl"
    for (int t = 0; t < bs; ++t) {
      r[_okl_exclusive_index] = x[b * bs + t];
      ++_okl_exclusive_index;
    }
    _okl_exclusive_index = 0;
#line 9 "max_inner_dims_slots.okl"
    for (int t = 0; t < bs; ++t) {
      y[b * bs + t] = 3.0f * r[_okl_exclusive_index];
      ++_okl_exclusive_index;
    }
  }
}

#line 3 "max_inner_dims_slots.okl"
void _okl_entry_bounded(void **args, volatile sig_atomic_t *stop) {
  bounded(*((const int *) args[0]), *((const int *) args[1]), (const float *) args[2], (float *) args[3], stop);
}
