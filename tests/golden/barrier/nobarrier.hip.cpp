#include <hip/hip_runtime.h>

#line 3 "nobarrier.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_readTwice_0(const int nb, const float *x, float *y, float *z) {
  {
#line 4 "nobarrier.okl"
    int b = blockIdx.x;
    __shared__ float s[64];
    {
#line 6 "nobarrier.okl"
      int t = threadIdx.x;
      s[t] = x[b * 64 + t];
    }
    __syncthreads();
    {
#line 9 "nobarrier.okl"
      int t = threadIdx.x;
      y[b * 64 + t] = s[63 - t];
    }
    {
#line 12 "nobarrier.okl"
      int t = threadIdx.x;
      z[b * 64 + t] = s[t] + s[(t + 1) % 64];
    }
  }
}
