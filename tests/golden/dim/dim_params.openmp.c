#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "dim_params.okl"
static void addMatrices(const int nx, const int ny, const float *A, const float *B, float *C, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ny)
  for (int j = 0; j < ny; ++j) {
#line 4 "dim_params.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 5 "dim_params.okl"
    for (int i = 0; i < nx; ++i) {
      C[i + nx * j] = A[i + nx * j] + B[i + nx * j];
    }
  }
}

#line 2 "dim_params.okl"
void _okl_entry_addMatrices(void **args, volatile sig_atomic_t *stop) {
  addMatrices(*((const int *) args[0]), *((const int *) args[1]), (const float *) args[2], (const float *) args[3], (float *) args[4], stop);
}
