
#line 2 "simd_length.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_simdHint_0(const int n, __global const float *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 3 "simd_length.okl"
    int b = get_group_id(0);
    {
#line 4 "simd_length.okl"
      int t = get_local_id(0);
      y[b * 64 + t] = x[b * 64 + t] * x[b * 64 + t];
    }
  }
}
