#include <hip/hip_runtime.h>

#line 4 "inner_tile.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_shiftSum_0(const int n, const float *x, float *tmp, float *y) {
  {
#line 5 "inner_tile.okl"
    int _okl_tiled_i = 32 * blockIdx.x;
    {
#line 5 "inner_tile.okl"
      int i = _okl_tiled_i + threadIdx.x;
      int t;
#line 5 "inner_tile.okl"
      if (i < n) {
        t = i % 32;
        tmp[i] = x[i];
      }
#line 8 "inner_tile.okl"
      __syncthreads();
      float left;
#line 5 "inner_tile.okl"
      if (i < n) {
#line 9 "inner_tile.okl"
        left = (t > 0) ? (tmp[i - 1]) : (0.0f);
      }
#line 10 "inner_tile.okl"
      __syncthreads();
#line 5 "inner_tile.okl"
      if (i < n) {
#line 11 "inner_tile.okl"
        tmp[i] = left + tmp[i];
      }
#line 12 "inner_tile.okl"
      __syncthreads();
#line 5 "inner_tile.okl"
      if (i < n) {
#line 13 "inner_tile.okl"
        y[i] = tmp[i] + ((t < 31 && i + 1 < n) ? (tmp[i + 1]) : (0.0f));
      }
    }
  }
}
