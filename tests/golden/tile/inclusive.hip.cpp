#include <hip/hip_runtime.h>

#line 2 "inclusive.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_upTo_0(const int last, float *x) {
  {
#line 3 "inclusive.okl"
    int _okl_tiled_i = 1 + 16 * blockIdx.x;
    {
#line 3 "inclusive.okl"
      int i = _okl_tiled_i + threadIdx.x;
#line 3 "inclusive.okl"
      if (i <= last) {
        x[i] = 1.0f / i;
      }
    }
  }
}
