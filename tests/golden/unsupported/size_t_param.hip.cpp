#include <hip/hip_runtime.h>

#line 3 "size_t_param.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_sized_0(const size_t n, float *x) {
  {
#line 4 "size_t_param.okl"
    size_t b = (unsigned long) blockIdx.x;
    {
#line 5 "size_t_param.okl"
      int t = threadIdx.x;
      x[b * 16 + t] = 0.0f;
    }
  }
}
