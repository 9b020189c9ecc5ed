#include <hip/hip_runtime.h>

#line 2 "offset_start.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_interior_0(const int n, const float *u, float *lap) {
  {
#line 3 "offset_start.okl"
    int b = 1 + blockIdx.x;
    {
#line 4 "offset_start.okl"
      int t = 2 + threadIdx.x;
      const int i = b * 20 + t;
      lap[i] = u[i - 1] - 2.0f * u[i] + u[i + 1];
    }
  }
}
