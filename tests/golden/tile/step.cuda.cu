
#line 2 "step.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_everyOther_0(const int n, float *x) {
  {
#line 3 "step.okl"
    int _okl_tiled_i = 64 * 2 * blockIdx.x;
    {
#line 3 "step.okl"
      int i = _okl_tiled_i + 2 * threadIdx.x;
#line 3 "step.okl"
      if (i < n) {
        x[i] = 0.0f;
      }
    }
  }
}
