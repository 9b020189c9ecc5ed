#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "dim_params.okl"
static void addMatrices(const int nx, const int ny, const float *A, const float *B, float *C) {
#line 4 "dim_params.okl"
  for (int j = 0; j < ny; ++j) {
    #pragma GCC ivdep
#line 5 "dim_params.okl"
    for (int i = 0; i < nx; ++i) {
      C[i + nx * j] = A[i + nx * j] + B[i + nx * j];
    }
  }
}

#line 2 "dim_params.okl"
void _okl_entry_addMatrices(void **args) {
  addMatrices(*((const int *) args[0]), *((const int *) args[1]), (const float *) args[2], (const float *) args[3], (float *) args[4]);
}
