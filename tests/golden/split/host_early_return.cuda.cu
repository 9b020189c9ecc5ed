
#line 2 "host_early_return.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_guarded_0(const int n, float *x) {
  {
#line 5 "host_early_return.okl"
    int b = blockIdx.x;
    {
#line 6 "host_early_return.okl"
      int t = threadIdx.x;
      if (b * 16 + t < n) x[b * 16 + t] += 1.0f;
    }
  }
}
