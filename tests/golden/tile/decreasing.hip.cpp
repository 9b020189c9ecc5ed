#include <hip/hip_runtime.h>

#line 2 "decreasing.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_downTiles_0(const int n, int *x) {
  {
#line 3 "decreasing.okl"
    int _okl_tiled_i = n - 1 - 32 * blockIdx.x;
    {
#line 3 "decreasing.okl"
      int i = _okl_tiled_i - threadIdx.x;
#line 3 "decreasing.okl"
      if (i >= 0) {
        x[i] = n - 1 - i;
      }
    }
  }
}
