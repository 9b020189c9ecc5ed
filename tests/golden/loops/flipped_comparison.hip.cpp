#include <hip/hip_runtime.h>

#line 2 "flipped_comparison.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_flipped_0(const int n, float *x) {
  {
#line 3 "flipped_comparison.okl"
    int b = blockIdx.x;
    {
#line 4 "flipped_comparison.okl"
      int t = 15 - threadIdx.x;
      x[b * 16 + t] = (float) t;
    }
  }
}
