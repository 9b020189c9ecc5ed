#include <hip/hip_runtime.h>

#line 2 "three_components.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_shift_0(const int n, float3 *points, const float dx) {
  {
#line 3 "three_components.okl"
    int _okl_tiled_i = 64 * blockIdx.x;
    {
#line 3 "three_components.okl"
      int i = _okl_tiled_i + threadIdx.x;
#line 3 "three_components.okl"
      if (i < n) {
        float3 p = points[i];
        p.x += dx;
        points[i] = p;
      }
    }
  }
}
