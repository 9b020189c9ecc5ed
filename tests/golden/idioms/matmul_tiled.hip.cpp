#include <hip/hip_runtime.h>

#line 5 "matmul_tiled.okl"
extern "C" __global__ __launch_bounds__(256) void _okl_matmul_0(const int n, const float *A, const float *B, float *C) {
  {
#line 6 "matmul_tiled.okl"
    int by = blockIdx.y;
    {
#line 7 "matmul_tiled.okl"
      int bx = blockIdx.x;
      __shared__ float sA[16][16];
      __shared__ float sB[16][16];
      float acc = 0.0f;
      for (int kt = 0; kt < n / 16; ++kt) {
        {
#line 12 "matmul_tiled.okl"
          int ty = threadIdx.y;
          {
#line 13 "matmul_tiled.okl"
            int tx = threadIdx.x;
            sA[ty][tx] = A[(by * 16 + ty) * n + kt * 16 + tx];
            sB[ty][tx] = B[(kt * 16 + ty) * n + bx * 16 + tx];
          }
        }
        __syncthreads();
        {
#line 18 "matmul_tiled.okl"
          int ty = threadIdx.y;
          {
#line 19 "matmul_tiled.okl"
            int tx = threadIdx.x;
            for (int k = 0; k < 16; ++k) acc += sA[ty][k] * sB[k][tx];
          }
        }
        __syncthreads();
      }
      {
#line 24 "matmul_tiled.okl"
        int ty = threadIdx.y;
        {
#line 25 "matmul_tiled.okl"
          int tx = threadIdx.x;
          C[(by * 16 + ty) * n + bx * 16 + tx] = acc;
        }
      }
    }
  }
}
