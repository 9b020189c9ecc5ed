#include <hip/hip_runtime.h>

#line 2 "two_blocks_2d.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_twoBlocks_0(const int nb, const float *x, float *y, float *z) {
  {
#line 3 "two_blocks_2d.okl"
    int b = blockIdx.x;
    {
#line 4 "two_blocks_2d.okl"
      int j = threadIdx.y;
      {
#line 5 "two_blocks_2d.okl"
        int i = threadIdx.x;
        y[b * 32 + j * 8 + i] = 2.0f * x[b * 32 + j * 8 + i];
      }
    }
    {
#line 9 "two_blocks_2d.okl"
      int j = threadIdx.y;
      {
#line 10 "two_blocks_2d.okl"
        int i = threadIdx.x;
        z[b * 32 + j * 8 + i] = x[b * 32 + j * 8 + i] + 1.0f;
      }
    }
  }
}
