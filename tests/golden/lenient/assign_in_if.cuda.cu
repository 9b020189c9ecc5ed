
#line 14 "assign_in_if.okl"
extern "C" __global__ __launch_bounds__(8) void _okl_scale_0(const int n, float *x) {
  {
#line 15 "assign_in_if.okl"
    int b = blockIdx.x;
    {
#line 16 "assign_in_if.okl"
      int t = threadIdx.x;
      x[b * 8 + t] *= 2.0f;
    }
  }
}
