#include <hip/hip_runtime.h>

#line 3 "nested_outer_extents.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_twoGrids_0(const int nz, const int na, const int nb2, float *a, float *b) {
  {
#line 4 "nested_outer_extents.okl"
    int z = blockIdx.y;
    {
#line 5 "nested_outer_extents.okl"
      int i = blockIdx.x;
#line 5 "nested_outer_extents.okl"
      if (i < na) {
        {
#line 6 "nested_outer_extents.okl"
          int t = threadIdx.x;
          a[(z * na + i) * 16 + t] = 1.0f;
        }
      }
    }
    {
#line 10 "nested_outer_extents.okl"
      int j = blockIdx.x;
#line 10 "nested_outer_extents.okl"
      if (j < nb2) {
        {
#line 11 "nested_outer_extents.okl"
          int t = threadIdx.x;
          b[(z * nb2 + j) * 16 + t] = 2.0f;
        }
      }
    }
  }
}
