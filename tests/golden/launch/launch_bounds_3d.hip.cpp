#include <hip/hip_runtime.h>

#line 2 "launch_bounds_3d.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_cube_0(const int ne, double *v) {
  {
#line 3 "launch_bounds_3d.okl"
    int e = blockIdx.x;
    {
#line 4 "launch_bounds_3d.okl"
      int k = threadIdx.z;
      {
#line 5 "launch_bounds_3d.okl"
        int j = threadIdx.y;
        {
#line 6 "launch_bounds_3d.okl"
          int i = threadIdx.x;
          v[((e * 2 + k) * 4 + j) * 8 + i] = i + 10 * j + 100 * k;
        }
      }
    }
  }
}
