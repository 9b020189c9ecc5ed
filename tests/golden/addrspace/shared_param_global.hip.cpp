#include <hip/hip_runtime.h>

#line 3 "shared_param_global.okl"
__device__ void set(double *s, const int i) {
  s[i] = 1.0;
}

extern "C" __global__ __launch_bounds__(4) void _okl_k_0(const int n, double *a) {
  {
#line 8 "shared_param_global.okl"
    int b = blockIdx.x;
    __shared__ double s[4];
    {
#line 10 "shared_param_global.okl"
      int i = threadIdx.x;
      set(s, i);
      set(a + 4 * b, i);
    }
  }
}
