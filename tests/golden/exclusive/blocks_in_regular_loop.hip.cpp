#include <hip/hip_runtime.h>

#line 2 "blocks_in_regular_loop.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_iterate_0(const int nb, const int steps, float *x) {
  {
#line 3 "blocks_in_regular_loop.okl"
    int b = blockIdx.x;
    float r;
    {
#line 5 "blocks_in_regular_loop.okl"
      int t = threadIdx.x;
      r = x[b * 16 + t];
    }
    for (int s = 0; s < steps; ++s) {
      {
        r = 0.5f * r + 1.0f;
      }
    }
    {
#line 13 "blocks_in_regular_loop.okl"
      int t = threadIdx.x;
      x[b * 16 + t] = r;
    }
  }
}
