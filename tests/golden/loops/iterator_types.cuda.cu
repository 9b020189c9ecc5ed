
#line 2 "iterator_types.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_wide_0(const long n, const unsigned int m, double *x) {
  {
#line 3 "iterator_types.okl"
    long b = (long) blockIdx.x;
    {
#line 4 "iterator_types.okl"
      unsigned int t = (unsigned int) threadIdx.x;
      x[b * 32 + t] = 0.5 * t;
    }
  }
}

#line 2 "iterator_types.okl"
extern "C" __global__ __launch_bounds__(8) void _okl_wide_1(const long n, const unsigned int m, double *x) {
  {
#line 8 "iterator_types.okl"
    size_t b = (unsigned long) blockIdx.x;
    {
#line 9 "iterator_types.okl"
      size_t t = (unsigned long) threadIdx.x;
      x[b * 8 + t] += 1.0;
    }
  }
}

#line 2 "iterator_types.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_wide_2(const long n, const unsigned int m, double *x) {
  {
#line 13 "iterator_types.okl"
    unsigned long b = 2 * ((unsigned long) blockIdx.x);
    {
#line 14 "iterator_types.okl"
      long t = 1 * ((long) threadIdx.x);
      x[b * 16 + t] *= 2.0;
    }
  }
}
