#include <hip/hip_runtime.h>

#line 5 "conditional_blocks.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_variants_0(const int nb, const float *x, float *y) {
  {
#line 6 "conditional_blocks.okl"
    int b = blockIdx.x;
    __shared__ float s[32];
    {
#line 8 "conditional_blocks.okl"
      int t = threadIdx.x;
      s[t] = x[b * 32 + t];
    }
    __syncthreads();
    {
#line 16 "conditional_blocks.okl"
      int t = threadIdx.x;
      s[t] += s[31 - t];
    }
    __syncthreads();
    {
#line 20 "conditional_blocks.okl"
      int t = threadIdx.x;
#line 22 "conditional_blocks.okl"
      y[b * 32 + t] = s[t] + 1.0f;
    }
  }
}
