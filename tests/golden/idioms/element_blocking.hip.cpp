#include <hip/hip_runtime.h>

#line 9 "element_blocking.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_scaleElements_0(const int Nelements, const int *elementIds, const double *wJ, double *q) {
  {
    int eo = 4 * blockIdx.x;
    __shared__ double s_w[4];
    int r_e;
#line 13 "element_blocking.okl"
    int element;
    {
      int es = threadIdx.y;
      {
#line 16 "element_blocking.okl"
        int n = threadIdx.x;
        r_e = eo + es;
        element = (r_e < Nelements) ? (elementIds[r_e]) : (-1);
        if (n == 0 && element >= 0) s_w[es] = wJ[element];
      }
    }
    __syncthreads();
    {
#line 23 "element_blocking.okl"
      int es = threadIdx.y;
      {
#line 24 "element_blocking.okl"
        int n = threadIdx.x;
        if (element >= 0) q[element * 16 + n] *= s_w[es];
      }
    }
  }
}
