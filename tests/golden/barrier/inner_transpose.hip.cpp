#include <hip/hip_runtime.h>

#line 5 "inner_transpose.okl"
extern "C" __global__ __launch_bounds__(256) void _okl_transpose_0(const int n, const float *a, float *at) {
  {
#line 6 "inner_transpose.okl"
    int by = blockIdx.y;
    {
#line 7 "inner_transpose.okl"
      int bx = blockIdx.x;
      __shared__ float tile[16][16 + 1];
      {
#line 9 "inner_transpose.okl"
        int j = threadIdx.y;
        const int row = bx * 16 + j;
        {
#line 11 "inner_transpose.okl"
          int i = threadIdx.x;
          int col = by * 16 + i;
          tile[j][i] = a[(by * 16 + j) * n + bx * 16 + i];
          __syncthreads();
          at[row * n + col] = tile[i][j];
        }
      }
    }
  }
}
