#include <hip/hip_runtime.h>

#line 2 "step_decrement.okl"
extern "C" __global__ __launch_bounds__(3) void _okl_countdown_0(const int n, int *x) {
  {
#line 3 "step_decrement.okl"
    int b = n - 1 - 3 * blockIdx.x;
    {
#line 4 "step_decrement.okl"
      int t = 12 - 4 * threadIdx.x;
      x[b * 3 + t / 4 - 1] = b + t;
    }
  }
}
