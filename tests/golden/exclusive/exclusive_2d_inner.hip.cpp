#include <hip/hip_runtime.h>

#line 2 "exclusive_2d_inner.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_plane_0(const int nb, const float *x, float *y) {
  {
#line 3 "exclusive_2d_inner.okl"
    int b = blockIdx.x;
    float r;
    {
#line 5 "exclusive_2d_inner.okl"
      int j = threadIdx.y;
      {
#line 6 "exclusive_2d_inner.okl"
        int i = threadIdx.x;
        r = x[(b * 4 + j) * 8 + i];
      }
    }
    {
#line 10 "exclusive_2d_inner.okl"
      int j = threadIdx.y;
      {
#line 11 "exclusive_2d_inner.okl"
        int i = threadIdx.x;
        y[(b * 4 + j) * 8 + i] = r + j;
      }
    }
  }
}
