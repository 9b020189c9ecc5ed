#include <hip/hip_runtime.h>

#line 3 "max_inner_dims.okl"
extern "C" __global__ __launch_bounds__(256) void _okl_boundedTile_0(const int nx, const int ny, const int bx, const int by, float *a) {
  {
#line 4 "max_inner_dims.okl"
    int gy = blockIdx.y;
    {
#line 5 "max_inner_dims.okl"
      int gx = blockIdx.x;
      {
#line 6 "max_inner_dims.okl"
        int ty = threadIdx.y;
        {
#line 7 "max_inner_dims.okl"
          int tx = threadIdx.x;
          a[(gy * by + ty) * nx * bx + gx * bx + tx] += 1.0f;
        }
      }
    }
  }
}
