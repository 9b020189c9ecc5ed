
#line 2 "check_false.okl"
extern "C" __global__ __launch_bounds__(128) void _okl_noCheck_0(const int n, const double *x, double *y) {
  {
#line 3 "check_false.okl"
    int _okl_tiled_i = 128 * blockIdx.x;
    {
#line 3 "check_false.okl"
      int i = _okl_tiled_i + threadIdx.x;
      y[i] = x[i] * x[i];
    }
  }
}
