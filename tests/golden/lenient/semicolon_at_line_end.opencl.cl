
#line 3 "semicolon_at_line_end.okl"
static void clampTo(__global float *v, const float hi) {
#line 3 "semicolon_at_line_end.okl"
  if ((*v) > hi) *v = hi;
}

#line 5 "semicolon_at_line_end.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_clampAll_0(const int n, __global float *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 6 "semicolon_at_line_end.okl"
    int _okl_tiled_i = 32 * get_group_id(0);
    {
#line 6 "semicolon_at_line_end.okl"
      int i = _okl_tiled_i + get_local_id(0);
#line 6 "semicolon_at_line_end.okl"
      if (i < n) {
        clampTo(&x[i], 1.0f);
        x[i] *= 2.0f;
      }
    }
  }
}
