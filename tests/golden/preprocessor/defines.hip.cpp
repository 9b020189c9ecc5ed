#include <hip/hip_runtime.h>

#line 5 "defines.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_massMatrix_0(const int Nelements, const double *q, double *Mq) {
  {
#line 6 "defines.okl"
    int e = blockIdx.x;
    __shared__ double s_q[8 * 8];
    {
#line 8 "defines.okl"
      int j = threadIdx.y;
      {
#line 9 "defines.okl"
        int i = threadIdx.x;
        s_q[i + 8 * j] = q[e * 64 + (i + 8 * j)];
      }
    }
    __syncthreads();
    {
#line 13 "defines.okl"
      int j = threadIdx.y;
      {
#line 14 "defines.okl"
        int i = threadIdx.x;
        Mq[e * 64 + (i + 8 * j)] = 0.5 * s_q[8 - 1 - i + 8 * j];
      }
    }
  }
}
