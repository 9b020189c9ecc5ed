
#line 2 "inclusive_bounds.okl"
extern "C" __global__ __launch_bounds__(8) void _okl_inclusive_0(const int last, int *hits) {
  {
#line 3 "inclusive_bounds.okl"
    int b = 1 + blockIdx.x;
    {
#line 4 "inclusive_bounds.okl"
      int t = 7 - threadIdx.x;
      hits[(b - 1) * 8 + t] = b;
    }
  }
}

#line 2 "inclusive_bounds.okl"
extern "C" __global__ __launch_bounds__(8) void _okl_inclusive_1(const int last, int *hits) {
  {
#line 8 "inclusive_bounds.okl"
    int b = blockIdx.x;
    {
#line 9 "inclusive_bounds.okl"
      int t = threadIdx.x;
      hits[b * 8 + t] += t;
    }
  }
}
