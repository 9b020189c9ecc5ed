
#line 2 "simd_length.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_simdHint_0(const int n, const float *x, float *y) {
  {
#line 3 "simd_length.okl"
    int b = blockIdx.x;
    {
#line 4 "simd_length.okl"
      int t = threadIdx.x;
      y[b * 64 + t] = x[b * 64 + t] * x[b * 64 + t];
    }
  }
}
