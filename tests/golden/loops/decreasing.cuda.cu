
#line 2 "decreasing.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_reverseCopy_0(const int n, const float *x, float *y) {
  {
#line 3 "decreasing.okl"
    int b = (n + 31) / 32 - 1 - blockIdx.x;
    {
#line 4 "decreasing.okl"
      int t = 31 - threadIdx.x;
      const int i = b * 32 + t;
      if (i < n) y[n - 1 - i] = x[i];
    }
  }
}
