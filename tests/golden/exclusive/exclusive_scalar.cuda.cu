
#line 2 "exclusive_scalar.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_keepValue_0(const int nb, const float *x, float *y) {
  {
#line 3 "exclusive_scalar.okl"
    int b = blockIdx.x;
    float v;
    {
#line 5 "exclusive_scalar.okl"
      int t = threadIdx.x;
      v = x[b * 32 + t];
    }
    {
#line 8 "exclusive_scalar.okl"
      int t = threadIdx.x;
      y[b * 32 + t] = v * v;
    }
  }
}
