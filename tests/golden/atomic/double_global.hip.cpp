#include <hip/hip_runtime.h>

#line 2 "double_global.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_doubleOps_0(const int n, const double *x, double *acc) {
  {
#line 3 "double_global.okl"
    int b = blockIdx.x;
    {
#line 4 "double_global.okl"
      int t = threadIdx.x;
      const double v = x[b * 64 + t];
      atomicAdd(&acc[0], v * v);
      atomicAdd(&acc[1], -v);
      atomicAdd(&acc[2], 1);
      atomicAdd(&acc[3], -1);
      atomicExch((unsigned long long *) (&acc[4]), __double_as_longlong(v));
    }
  }
}
