#include <hip/hip_runtime.h>

#line 3 "assignment_forms.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_assignForms_0(const int n, const int *x, int *acc, float *f) {
  {
#line 4 "assignment_forms.okl"
    int b = blockIdx.x;
    {
#line 5 "assignment_forms.okl"
      int t = threadIdx.x;
      const int v = x[b * 32 + t];
      atomicAdd(&acc[0], v);
      atomicOr(&acc[1], v);
      atomicSub(&acc[2], 2 * v);
      atomicAdd(&f[0], 0.5f);
    }
  }
}
