
#line 3 "prefix_attributes.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_copyPrefix_0(const int n, const double * __restrict__ src, double * __restrict__ dst) {
  {
#line 4 "prefix_attributes.okl"
    int b = blockIdx.x;
    {
#line 5 "prefix_attributes.okl"
      int t = threadIdx.x;
      const int i = b * 32 + t;
      if (i < n) dst[i] = src[i];
    }
  }
}
