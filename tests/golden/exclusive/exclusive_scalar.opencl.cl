
#line 2 "exclusive_scalar.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_keepValue_0(const int nb, __global const float *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 3 "exclusive_scalar.okl"
    int b = get_group_id(0);
    float v;
    {
#line 5 "exclusive_scalar.okl"
      int t = get_local_id(0);
      v = x[b * 32 + t];
    }
    {
#line 8 "exclusive_scalar.okl"
      int t = get_local_id(0);
      y[b * 32 + t] = v * v;
    }
  }
}
