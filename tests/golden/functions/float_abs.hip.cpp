#include <hip/hip_runtime.h>

#line 2 "float_abs.okl"
__device__ static double spread(const double a, const double b) {
#line 2 "float_abs.okl"
  return fabs(a - b);
}

#line 4 "float_abs.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_weights_0(const int n, const double *y, const float *tol, double *w, int *k) {
  {
#line 5 "float_abs.okl"
    int _okl_tiled_i = 64 * blockIdx.x;
    {
#line 5 "float_abs.okl"
      int i = _okl_tiled_i + threadIdx.x;
#line 5 "float_abs.okl"
      if (i < n) {
        const double denom = 1e-3 * fabs(y[i]) + fabs(tol[i % 4]) + spread(y[i], 0.5);
        w[i] = 1.0 / denom;
        k[i] = abs(i - 3);
      }
    }
  }
}
