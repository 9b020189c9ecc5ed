#include <hip/hip_runtime.h>

#line 4 "between_outer_loops.okl"
extern "C" __global__ __launch_bounds__(8) void _okl_scaleGroups_0(const int groups, const float *x, float *y) {
  {
#line 5 "between_outer_loops.okl"
    int _okl_tiled_g = 2 * blockIdx.y;
#line 5 "between_outer_loops.okl"
    for (int g = _okl_tiled_g; g < _okl_tiled_g + 2; ++g) {
#line 5 "between_outer_loops.okl"
      if (g < groups) {
        if (g % 3 != 1) {
          {
            int b = blockIdx.x;
#line 7 "between_outer_loops.okl"
            float r;
            {
              int t = threadIdx.x;
              r = x[(g * 2 + b) * 8 + t];
            }
            {
#line 12 "between_outer_loops.okl"
              int t = threadIdx.x;
              y[(g * 2 + b) * 8 + t] = 2.0f * r + ((float) t);
            }
          }
        }
      }
    }
  }
}
