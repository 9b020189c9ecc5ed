
#line 2 "two_kernels.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_fill_0(const int n, const float value, float *x) {
  {
#line 3 "two_kernels.okl"
    int b = blockIdx.x;
    {
#line 4 "two_kernels.okl"
      int t = threadIdx.x;
      const int i = b * 64 + t;
      if (i < n) x[i] = value;
    }
  }
}

extern "C" __global__ __launch_bounds__(128) void _okl_scale_0(const int n, const float factor, float *x) {
  {
#line 12 "two_kernels.okl"
    int b = blockIdx.x;
    {
#line 13 "two_kernels.okl"
      int t = threadIdx.x;
      const int i = b * 128 + t;
      if (i < n) x[i] *= factor;
    }
  }
}
