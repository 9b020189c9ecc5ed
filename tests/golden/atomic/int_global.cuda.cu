
#line 2 "int_global.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_intOps_0(const int n, const int *x, int *acc) {
  {
#line 3 "int_global.okl"
    int b = blockIdx.x;
    {
#line 4 "int_global.okl"
      int t = threadIdx.x;
      const int v = x[b * 32 + t];
      atomicAdd(&acc[0], v);
      atomicSub(&acc[1], v);
      atomicAdd(&acc[2], 1);
      atomicAdd(&acc[3], 1);
      atomicSub(&acc[4], 1);
      atomicSub(&acc[5], 1);
      atomicAnd(&acc[6], v);
      atomicOr(&acc[7], v);
      atomicXor(&acc[8], v);
      atomicExch(&acc[9], v);
    }
  }
}
