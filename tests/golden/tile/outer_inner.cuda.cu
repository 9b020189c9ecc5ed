
#line 2 "outer_inner.okl"
extern "C" __global__ __launch_bounds__(256) void _okl_saxpy_0(const int n, const float a, const float *x, float *y) {
  {
#line 3 "outer_inner.okl"
    int _okl_tiled_i = 256 * blockIdx.x;
    {
#line 3 "outer_inner.okl"
      int i = _okl_tiled_i + threadIdx.x;
#line 3 "outer_inner.okl"
      if (i < n) {
        y[i] = a * x[i] + y[i];
      }
    }
  }
}
