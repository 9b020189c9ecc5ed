#include <hip/hip_runtime.h>

#line 3 "shared_between_tiles.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_stage_0(const int rows, const float *x, float *y) {
  {
#line 4 "shared_between_tiles.okl"
    int _okl_tiled_g = 4 * blockIdx.x;
#line 4 "shared_between_tiles.okl"
    for (int g = _okl_tiled_g; g < _okl_tiled_g + 4; ++g) {
#line 4 "shared_between_tiles.okl"
      if (g < rows) {
        __shared__ float s[64];
        {
#line 6 "shared_between_tiles.okl"
          int _okl_tiled_i = 16 * threadIdx.y;
          {
#line 6 "shared_between_tiles.okl"
            int i = _okl_tiled_i + threadIdx.x;
#line 6 "shared_between_tiles.okl"
            if (i < 64) {
              s[i] = x[g * 64 + i];
            }
          }
        }
        __syncthreads();
        {
#line 9 "shared_between_tiles.okl"
          int _okl_tiled_i = 16 * threadIdx.y;
          {
#line 9 "shared_between_tiles.okl"
            int i = _okl_tiled_i + threadIdx.x;
#line 9 "shared_between_tiles.okl"
            if (i < 64) {
              y[g * 64 + i] = s[63 - i] + s[i];
            }
          }
        }
        __syncthreads();
      }
    }
  }
}
