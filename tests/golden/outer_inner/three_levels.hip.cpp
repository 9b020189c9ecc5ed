#include <hip/hip_runtime.h>

#line 2 "three_levels.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_box_0(const int nx, const int ny, const int nz, float *v) {
  {
#line 3 "three_levels.okl"
    int bz = blockIdx.z;
    {
#line 4 "three_levels.okl"
      int by = blockIdx.y;
      {
#line 5 "three_levels.okl"
        int bx = blockIdx.x;
        {
#line 6 "three_levels.okl"
          int tz = threadIdx.z;
          {
#line 7 "three_levels.okl"
            int ty = threadIdx.y;
            {
#line 8 "three_levels.okl"
              int tx = threadIdx.x;
              const int x = bx * 8 + tx;
#line 9 "three_levels.okl"
              const int y = by * 4 + ty;
#line 9 "three_levels.okl"
              const int z = bz * 2 + tz;
              v[(z * ny * 4 + y) * nx * 8 + x] = x + y + z;
            }
          }
        }
      }
    }
  }
}
