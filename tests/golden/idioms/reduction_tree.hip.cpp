#include <hip/hip_runtime.h>

#line 5 "reduction_tree.okl"
extern "C" __global__ __launch_bounds__(256) void _okl_reduceSum_0(const int N, const float *x, float *blockSums) {
  {
#line 6 "reduction_tree.okl"
    int b = blockIdx.x;
    __shared__ float s_sum[256];
    {
#line 8 "reduction_tree.okl"
      int t = threadIdx.x;
      const int i = b * 256 + t;
      s_sum[t] = (i < N) ? (x[i]) : (0.0f);
    }
    __syncthreads();
    {
#line 12 "reduction_tree.okl"
      int t = threadIdx.x;
      if (t < 128) s_sum[t] += s_sum[t + 128];
    }
    __syncthreads();
    {
#line 15 "reduction_tree.okl"
      int t = threadIdx.x;
      if (t < 64) s_sum[t] += s_sum[t + 64];
    }
    __syncthreads();
    {
#line 17 "reduction_tree.okl"
      int t = threadIdx.x;
      if (t < 32) s_sum[t] += s_sum[t + 32];
    }
    __syncthreads();
    {
#line 20 "reduction_tree.okl"
      int t = threadIdx.x;
      if (t < 16) s_sum[t] += s_sum[t + 16];
    }
    __syncthreads();
    {
#line 23 "reduction_tree.okl"
      int t = threadIdx.x;
      if (t < 8) s_sum[t] += s_sum[t + 8];
    }
    __syncthreads();
    {
#line 26 "reduction_tree.okl"
      int t = threadIdx.x;
      if (t < 4) s_sum[t] += s_sum[t + 4];
    }
    __syncthreads();
    {
#line 29 "reduction_tree.okl"
      int t = threadIdx.x;
      if (t < 2) s_sum[t] += s_sum[t + 2];
    }
    __syncthreads();
    {
#line 32 "reduction_tree.okl"
      int t = threadIdx.x;
      if (t == 0) blockSums[b] = s_sum[0] + s_sum[1];
    }
  }
}
