#include <hip/hip_runtime.h>

#line 2 "inner_inner.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_threadTile_0(const int nb, float *x) {
  {
#line 3 "inner_inner.okl"
    int b = blockIdx.x;
    {
#line 4 "inner_inner.okl"
      int _okl_tiled_i = 8 * threadIdx.y;
      {
#line 4 "inner_inner.okl"
        int i = _okl_tiled_i + threadIdx.x;
#line 4 "inner_inner.okl"
        if (i < 64) {
          x[b * 64 + i] = (float) i;
        }
      }
    }
  }
}
