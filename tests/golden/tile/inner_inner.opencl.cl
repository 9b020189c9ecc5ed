
#line 2 "inner_inner.okl"
__kernel __attribute__((reqd_work_group_size(8, 8, 1))) void _okl_threadTile_0(const int nb, __global float *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 3 "inner_inner.okl"
    int b = get_group_id(0);
    {
#line 4 "inner_inner.okl"
      int _okl_tiled_i = 8 * get_local_id(1);
      {
#line 4 "inner_inner.okl"
        int i = _okl_tiled_i + get_local_id(0);
#line 4 "inner_inner.okl"
        if (i < 64) {
          x[b * 64 + i] = (float) i;
        }
      }
    }
  }
}
