#include <hip/hip_runtime.h>

#line 3 "semicolon_at_line_end.okl"
__device__ static void clampTo(float *v, const float hi) {
#line 3 "semicolon_at_line_end.okl"
  if ((*v) > hi) *v = hi;
}

#line 5 "semicolon_at_line_end.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_clampAll_0(const int n, float *x) {
  {
#line 6 "semicolon_at_line_end.okl"
    int _okl_tiled_i = 32 * blockIdx.x;
    {
#line 6 "semicolon_at_line_end.okl"
      int i = _okl_tiled_i + threadIdx.x;
#line 6 "semicolon_at_line_end.okl"
      if (i < n) {
        clampTo(&x[i], 1.0f);
        x[i] *= 2.0f;
      }
    }
  }
}
