#include <hip/hip_runtime.h>

#line 3 "float_global.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_floatOps_0(const int n, const float *x, float *acc) {
  {
#line 4 "float_global.okl"
    int b = blockIdx.x;
    {
#line 5 "float_global.okl"
      int t = threadIdx.x;
      const float v = x[b * 64 + t];
      atomicAdd(&acc[0], v);
      atomicAdd(&acc[1], -(0.5f * v));
      atomicAdd(&acc[2], 1);
      atomicAdd(&acc[3], -1);
      atomicExch(&acc[4], v);
    }
  }
}
