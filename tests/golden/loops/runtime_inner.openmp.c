#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "runtime_inner.okl"
static void rowSums(const int rows, const int cols, const float *a, float *partial, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < rows)
#line 3 "runtime_inner.okl"
  for (int r = 0; r < rows; ++r) {
#line 3 "runtime_inner.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 4 "runtime_inner.okl"
    for (int c = 0; c < cols; ++c) {
      partial[r * cols + c] = a[r * cols + c] * a[r * cols + c];
    }
  }
}

#line 2 "runtime_inner.okl"
void _okl_entry_rowSums(void **args, volatile sig_atomic_t *stop) {
  rowSums(*((const int *) args[0]), *((const int *) args[1]), (const float *) args[2], (float *) args[3], stop);
}
