
#line 2 "outer_outer.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_gridTile_0(const int n, __global float *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 3 "outer_outer.okl"
    int _okl_tiled_i = 16 * get_group_id(1);
    {
#line 3 "outer_outer.okl"
      int i = _okl_tiled_i + get_group_id(0);
#line 3 "outer_outer.okl"
      if (i < n) {
        {
#line 4 "outer_outer.okl"
          int t = get_local_id(0);
          x[i * 32 + t] = 1.0f;
        }
      }
    }
  }
}
