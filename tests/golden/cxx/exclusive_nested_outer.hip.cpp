#include <hip/hip_runtime.h>

#line 3 "exclusive_nested_outer.okl"
extern "C" __global__ __launch_bounds__(8) void _okl_nestedExclusive_0(const int n, float *x) {
  {
#line 4 "exclusive_nested_outer.okl"
    int b = blockIdx.y;
    {
      int c = blockIdx.x;
#line 5 "exclusive_nested_outer.okl"
      float r;
      {
        int t = threadIdx.x;
        r = b * 100 + c * 10 + t;
      }
      {
#line 10 "exclusive_nested_outer.okl"
        int t = threadIdx.x;
        x[(b * 3 + c) * 8 + t] = 2 * r;
      }
    }
  }
}
