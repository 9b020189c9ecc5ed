#include <hip/hip_runtime.h>

#line 4 "extern_constant.okl"
__constant__ const int weights[4] = {1, 2, 3, 4};

extern "C" __global__ __launch_bounds__(4) void _okl_weigh_0(const int n, const int *x, int *y) {
  {
#line 7 "extern_constant.okl"
    int b = blockIdx.x;
    {
#line 8 "extern_constant.okl"
      int i = threadIdx.x;
      y[b * 4 + i] = weights[i] * x[b * 4 + i];
    }
  }
}
