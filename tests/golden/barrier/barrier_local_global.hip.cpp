#include <hip/hip_runtime.h>

#line 3 "barrier_local_global.okl"
extern "C" __global__ __launch_bounds__(8) void _okl_legacyBarriers_0(const int nb, const double *x, double *y) {
  {
#line 4 "barrier_local_global.okl"
    int b = blockIdx.x;
    __shared__ double s[8];
    {
#line 6 "barrier_local_global.okl"
      int t = threadIdx.x;
      s[t] = x[b * 8 + t];
    }
    __syncthreads();
    {
#line 10 "barrier_local_global.okl"
      int t = threadIdx.x;
      y[b * 8 + t] = s[7 - t];
    }
    __syncthreads();
    {
#line 14 "barrier_local_global.okl"
      int t = threadIdx.x;
      s[t] = y[b * 8 + t] + 1.0;
    }
  }
}
