#include <hip/hip_runtime.h>

#line 5 "chained_sums.okl"
extern "C" __global__ __launch_bounds__(8) void _okl_chained_0(const int N, const float * __restrict__ a, const float * __restrict__ b, float * __restrict__ y) {
  {
    int blk = blockIdx.x;
    __shared__ float s_a[8][8];
    __shared__ float s_b[8][8];
    {
#line 10 "chained_sums.okl"
      int t = threadIdx.x;
      for (int r = 0; r < 8; ++r) {
        s_a[r][t] = a[r * 8 + t];
        s_b[r][t] = b[r * 8 + t];
      }
    }
    __syncthreads();
    {
#line 16 "chained_sums.okl"
      int t = threadIdx.x;
      float acc = t;
      for (int m = 0; m < 8; ++m) {
        acc += s_a[m][t] * s_b[t][m];
        acc += s_b[m][t] * blk;
      }
      if (blk * 8 + t < N) y[blk * 8 + t] = acc;
    }
  }
}

extern "C" __global__ __launch_bounds__(8) void _okl_single_0(const int N, const float * __restrict__ a, float * __restrict__ y) {
  {
#line 28 "chained_sums.okl"
    int blk = blockIdx.x;
    __shared__ float s_a[8][8];
    {
#line 30 "chained_sums.okl"
      int t = threadIdx.x;
      for (int r = 0; r < 8; ++r) {
        s_a[r][t] = a[r * 8 + t];
      }
    }
    __syncthreads();
    {
#line 35 "chained_sums.okl"
      int t = threadIdx.x;
      float acc = t;
      for (int m = 0; m < 8; ++m) {
        acc += s_a[m][t] * blk;
      }
      if (blk * 8 + t < N) y[blk * 8 + t] = acc;
    }
  }
}
