
#line 4 "inner_tile.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_shiftSum_0(const int n, __global const float *x, __global float *tmp, __global float *y, ulong _okl_off_x, ulong _okl_off_tmp, ulong _okl_off_y) {
  x += _okl_off_x;
  tmp += _okl_off_tmp;
  y += _okl_off_y;
  {
#line 5 "inner_tile.okl"
    int _okl_tiled_i = 32 * get_group_id(0);
    {
#line 5 "inner_tile.okl"
      int i = _okl_tiled_i + get_local_id(0);
      int t;
#line 5 "inner_tile.okl"
      if (i < n) {
        t = i % 32;
        tmp[i] = x[i];
      }
#line 8 "inner_tile.okl"
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      float left;
#line 5 "inner_tile.okl"
      if (i < n) {
#line 9 "inner_tile.okl"
        left = (t > 0) ? (tmp[i - 1]) : (0.0f);
      }
#line 10 "inner_tile.okl"
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
#line 5 "inner_tile.okl"
      if (i < n) {
#line 11 "inner_tile.okl"
        tmp[i] = left + tmp[i];
      }
#line 12 "inner_tile.okl"
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
#line 5 "inner_tile.okl"
      if (i < n) {
#line 13 "inner_tile.okl"
        y[i] = tmp[i] + ((t < 31 && i + 1 < n) ? (tmp[i + 1]) : (0.0f));
      }
    }
  }
}
