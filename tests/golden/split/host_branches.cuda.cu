
#line 2 "host_branches.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_chooser_0(const int n, const int mode, double *x) {
  {
    int b = blockIdx.x;
    {
#line 5 "host_branches.okl"
      int t = threadIdx.x;
      x[b * 16 + t] = 0.0;
    }
  }
}

#line 2 "host_branches.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_chooser_1(const int n, const int mode, double *x, const double v) {
  {
#line 11 "host_branches.okl"
    int b = blockIdx.x;
    {
#line 12 "host_branches.okl"
      int t = threadIdx.x;
      x[b * 16 + t] = v;
    }
  }
}
