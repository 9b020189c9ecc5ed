
#line 2 "exclusive_2d_inner.okl"
__kernel __attribute__((reqd_work_group_size(8, 4, 1))) void _okl_plane_0(const int nb, __global const float *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 3 "exclusive_2d_inner.okl"
    int b = get_group_id(0);
    float r;
    {
#line 5 "exclusive_2d_inner.okl"
      int j = get_local_id(1);
      {
#line 6 "exclusive_2d_inner.okl"
        int i = get_local_id(0);
        r = x[(b * 4 + j) * 8 + i];
      }
    }
    {
#line 10 "exclusive_2d_inner.okl"
      int j = get_local_id(1);
      {
#line 11 "exclusive_2d_inner.okl"
        int i = get_local_id(0);
        y[(b * 4 + j) * 8 + i] = r + j;
      }
    }
  }
}
