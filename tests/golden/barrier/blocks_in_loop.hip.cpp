#include <hip/hip_runtime.h>

#line 3 "blocks_in_loop.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_relax_0(const int nb, const int sweeps, float *x) {
  {
#line 4 "blocks_in_loop.okl"
    int b = blockIdx.x;
    __shared__ float s[32];
    __shared__ float t_new[32];
    {
#line 7 "blocks_in_loop.okl"
      int t = threadIdx.x;
      s[t] = x[b * 32 + t];
    }
    __syncthreads();
#line 10 "blocks_in_loop.okl"
    for (int it = 0; it < sweeps; ++it) {
      {
#line 11 "blocks_in_loop.okl"
        int t = threadIdx.x;
        const float left = s[(t + 31) % 32];
#line 12 "blocks_in_loop.okl"
        const float right = s[(t + 1) % 32];
        t_new[t] = 0.5f * (left + right);
      }
      __syncthreads();
      {
#line 15 "blocks_in_loop.okl"
        int t = threadIdx.x;
        s[t] = t_new[t];
      }
      __syncthreads();
    }
    {
#line 19 "blocks_in_loop.okl"
      int t = threadIdx.x;
      x[b * 32 + t] = s[t];
    }
  }
}
