
#line 2 "two_outer_loops.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_twoPasses_0(const int n, const float *x, float *y, float *z) {
  {
#line 3 "two_outer_loops.okl"
    int b = blockIdx.x;
    {
#line 4 "two_outer_loops.okl"
      int t = threadIdx.x;
      y[b * 32 + t] = 2.0f * x[b * 32 + t];
    }
  }
}

#line 2 "two_outer_loops.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_twoPasses_1(const int n, const float *x, float *y, float *z) {
  {
#line 8 "two_outer_loops.okl"
    int b = blockIdx.x;
    {
#line 9 "two_outer_loops.okl"
      int t = threadIdx.x;
      z[b * 32 + t] = y[b * 32 + t] + y[(b + 1) % n * 32 + t];
    }
  }
}
