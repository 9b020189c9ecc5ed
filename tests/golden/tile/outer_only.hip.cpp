#include <hip/hip_runtime.h>

#line 2 "outer_only.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_rowsPerGroup_0(const int rows, const float *a, float *b) {
  {
#line 3 "outer_only.okl"
    int _okl_tiled_r = 4 * blockIdx.x;
#line 3 "outer_only.okl"
    for (int r = _okl_tiled_r; r < _okl_tiled_r + 4; ++r) {
#line 3 "outer_only.okl"
      if (r < rows) {
        {
#line 4 "outer_only.okl"
          int c = threadIdx.x;
          b[r * 64 + c] = 2.0f * a[r * 64 + c];
        }
      }
    }
  }
}
