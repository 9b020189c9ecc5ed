
#line 4 "sibling_runtime_extent.okl"
extern "C" __global__ void _okl_mixed_0(const int nb, const int m, const float *x, float *y, float *z) {
  {
#line 5 "sibling_runtime_extent.okl"
    int b = blockIdx.x;
    {
#line 6 "sibling_runtime_extent.okl"
      int t = threadIdx.x;
#line 6 "sibling_runtime_extent.okl"
      if (t < 32) {
        y[b * 32 + t] = x[b * 32 + t];
      }
    }
    {
#line 9 "sibling_runtime_extent.okl"
      int t = threadIdx.x;
#line 9 "sibling_runtime_extent.okl"
      if (t < m) {
        z[b * m + t] = 0.0f;
      }
    }
  }
}
