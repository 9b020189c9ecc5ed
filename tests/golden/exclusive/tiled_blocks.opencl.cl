
#line 3 "tiled_blocks.okl"
__kernel __attribute__((reqd_work_group_size(16, 4, 1))) void _okl_tiledExclusive_0(const int rows, __global const float *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 4 "tiled_blocks.okl"
    int _okl_tiled_g = 2 * get_group_id(0);
#line 4 "tiled_blocks.okl"
    for (int g = _okl_tiled_g; g < _okl_tiled_g + 2; ++g) {
#line 4 "tiled_blocks.okl"
      if (g < rows) {
        float r;
        {
#line 6 "tiled_blocks.okl"
          int _okl_tiled_i = 16 * get_local_id(1);
          {
#line 6 "tiled_blocks.okl"
            int i = _okl_tiled_i + get_local_id(0);
#line 6 "tiled_blocks.okl"
            if (i < 64) {
              r = x[g * 64 + i];
            }
          }
        }
        {
#line 9 "tiled_blocks.okl"
          int _okl_tiled_i = 16 * get_local_id(1);
          {
#line 9 "tiled_blocks.okl"
            int i = _okl_tiled_i + get_local_id(0);
#line 9 "tiled_blocks.okl"
            if (i < 64) {
              y[g * 64 + i] = 2.0f * r;
            }
          }
        }
      }
    }
  }
}
