
#line 2 "decreasing.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_downTiles_0(const int n, __global int *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 3 "decreasing.okl"
    int _okl_tiled_i = n - 1 - 32 * get_group_id(0);
    {
#line 3 "decreasing.okl"
      int i = _okl_tiled_i - get_local_id(0);
#line 3 "decreasing.okl"
      if (i >= 0) {
        x[i] = n - 1 - i;
      }
    }
  }
}
