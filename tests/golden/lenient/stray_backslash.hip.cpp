#include <hip/hip_runtime.h>

#line 3 "stray_backslash.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_sumPairs_0(const int n, const float *a, const float *b, float *c) {
  {
#line 4 "stray_backslash.okl"
    int _okl_tiled_i = 32 * blockIdx.x;
    {
#line 4 "stray_backslash.okl"
      int i = _okl_tiled_i + threadIdx.x;
#line 4 "stray_backslash.okl"
      if (i < n) {
        c[i] = a[i] + b[i];
      }
    }
  }
}
