
#line 2 "long_global.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_longOps_0(const int n, const long *x, long *acc, unsigned long *uacc) {
  {
#line 3 "long_global.okl"
    int b = blockIdx.x;
    {
#line 4 "long_global.okl"
      int t = threadIdx.x;
      const long v = x[b * 32 + t];
      atomicAdd((unsigned long long *) (&acc[0]), (unsigned long long) v);
      atomicAdd((unsigned long long *) (&acc[1]), (unsigned long long) (-v));
      atomicAdd((unsigned long long *) (&acc[2]), (unsigned long long) 1);
      atomicAdd((unsigned long long *) (&acc[3]), (unsigned long long) (-1));
      atomicAnd((unsigned long long *) (&acc[4]), (unsigned long long) v);
      atomicOr((unsigned long long *) (&acc[5]), (unsigned long long) v);
      atomicXor((unsigned long long *) (&acc[6]), (unsigned long long) v);
      atomicExch((unsigned long long *) (&acc[7]), (unsigned long long) v);
      atomicAdd((unsigned long long *) (&uacc[0]), (unsigned long long) ((unsigned long) v));
      atomicAdd((unsigned long long *) (&uacc[1]), (unsigned long long) (-1));
    }
  }
}
