#include <hip/hip_runtime.h>

#line 4 "missing_endif.okl"
extern "C" __global__ __launch_bounds__(8) void _okl_fill_0(const int n, float *x) {
  {
#line 5 "missing_endif.okl"
    int b = blockIdx.x;
    {
#line 6 "missing_endif.okl"
      int t = threadIdx.x;
      x[b * 8 + t] = 1.0f;
    }
  }
}
