#include <hip/hip_runtime.h>

#line 3 "restrict_params.okl"
extern "C" __global__ __launch_bounds__(128) void _okl_triad_0(const int n, const double s, const double * __restrict__ a, const double * __restrict__ b, double * __restrict__ c) {
  {
    int _okl_tiled_i = 128 * blockIdx.x;
    {
#line 5 "restrict_params.okl"
      int i = _okl_tiled_i + threadIdx.x;
#line 5 "restrict_params.okl"
      if (i < n) {
        c[i] = a[i] + s * b[i];
      }
    }
  }
}
