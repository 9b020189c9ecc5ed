
#line 2 "step_increment.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_strided_0(const int n, float *x) {
  {
#line 3 "step_increment.okl"
    int b = 64 * blockIdx.x;
    {
#line 4 "step_increment.okl"
      int t = 2 * threadIdx.x;
      if (b + t < n) x[b + t] = 1.0f;
      if (b + t + 1 < n) x[b + t + 1] = 2.0f;
    }
  }
}
