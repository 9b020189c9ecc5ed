#include <hip/hip_runtime.h>

#line 6 "include/okl_helpers.h"
typedef float real_t;

__device__ real_t lerp(const real_t a, const real_t b, const real_t t) {
  return a + t * (b - a);
}

#line 6 "include_header.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_blend_0(const int n, const real_t t, const real_t *a, const real_t *b, real_t *c) {
  {
#line 7 "include_header.okl"
    int g = blockIdx.x;
    {
#line 8 "include_header.okl"
      int l = threadIdx.x;
      const int i = g * 32 + l;
      if (i < n) c[i] = lerp(a[i], b[i], t);
    }
  }
}
