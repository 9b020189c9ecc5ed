#include <hip/hip_runtime.h>

#line 2 "unsigned_global.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_unsignedOps_0(const int n, const unsigned int *x, unsigned int *acc) {
  {
#line 3 "unsigned_global.okl"
    int b = blockIdx.x;
    {
#line 4 "unsigned_global.okl"
      int t = threadIdx.x;
      const unsigned int v = x[b * 32 + t];
      atomicAdd(&(*acc), v);
      atomicSub(&acc[1], v);
      atomicAdd(&acc[2], 1);
      atomicSub(&acc[3], 1);
      atomicAnd(&acc[4], v);
      atomicOr(&acc[5], v);
      atomicXor(&acc[6], v);
      atomicExch(&acc[7], v);
    }
  }
}
