
#line 3 "shared_between_tiles.okl"
__kernel __attribute__((reqd_work_group_size(16, 4, 1))) void _okl_stage_0(const int rows, __global const float *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
#line 5 "shared_between_tiles.okl"
  __local float s[64];
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 4 "shared_between_tiles.okl"
    int _okl_tiled_g = 4 * get_group_id(0);
#line 4 "shared_between_tiles.okl"
    for (int g = _okl_tiled_g; g < _okl_tiled_g + 4; ++g) {
#line 4 "shared_between_tiles.okl"
      if (g < rows) {
        {
          int _okl_tiled_i = 16 * get_local_id(1);
          {
#line 6 "shared_between_tiles.okl"
            int i = _okl_tiled_i + get_local_id(0);
#line 6 "shared_between_tiles.okl"
            if (i < 64) {
              s[i] = x[g * 64 + i];
            }
          }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        {
#line 9 "shared_between_tiles.okl"
          int _okl_tiled_i = 16 * get_local_id(1);
          {
#line 9 "shared_between_tiles.okl"
            int i = _okl_tiled_i + get_local_id(0);
#line 9 "shared_between_tiles.okl"
            if (i < 64) {
              y[g * 64 + i] = s[63 - i] + s[i];
            }
          }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
      }
    }
  }
}
