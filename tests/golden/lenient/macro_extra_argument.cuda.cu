
#line 9 "macro_extra_argument.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_copy_float_0(const int n, const float *a, float *b) {
  {
#line 9 "macro_extra_argument.okl"
    int _okl_tiled_i = 16 * blockIdx.x;
    {
#line 9 "macro_extra_argument.okl"
      int i = _okl_tiled_i + threadIdx.x;
#line 9 "macro_extra_argument.okl"
      if (i < n) {
#line 9 "macro_extra_argument.okl"
        b[i] = a[i];
      }
    }
  }
}

#line 10 "macro_extra_argument.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_copy_int_0(const int n, const int *a, int *b) {
  {
#line 10 "macro_extra_argument.okl"
    int _okl_tiled_i = 16 * blockIdx.x;
    {
#line 10 "macro_extra_argument.okl"
      int i = _okl_tiled_i + threadIdx.x;
#line 10 "macro_extra_argument.okl"
      if (i < n) {
#line 10 "macro_extra_argument.okl"
        b[i] = a[i];
      }
    }
  }
}
