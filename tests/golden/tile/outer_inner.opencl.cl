
#line 2 "outer_inner.okl"
__kernel __attribute__((reqd_work_group_size(256, 1, 1))) void _okl_saxpy_0(const int n, const float a, __global const float *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 3 "outer_inner.okl"
    int _okl_tiled_i = 256 * get_group_id(0);
    {
#line 3 "outer_inner.okl"
      int i = _okl_tiled_i + get_local_id(0);
#line 3 "outer_inner.okl"
      if (i < n) {
        y[i] = a * x[i] + y[i];
      }
    }
  }
}
