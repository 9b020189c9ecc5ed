
#line 2 "two_blocks_2d.okl"
__kernel __attribute__((reqd_work_group_size(8, 4, 1))) void _okl_twoBlocks_0(const int nb, __global const float *x, __global float *y, __global float *z, ulong _okl_off_x, ulong _okl_off_y, ulong _okl_off_z) {
  x += _okl_off_x;
  y += _okl_off_y;
  z += _okl_off_z;
  {
#line 3 "two_blocks_2d.okl"
    int b = get_group_id(0);
    {
#line 4 "two_blocks_2d.okl"
      int j = get_local_id(1);
      {
#line 5 "two_blocks_2d.okl"
        int i = get_local_id(0);
        y[b * 32 + j * 8 + i] = 2.0f * x[b * 32 + j * 8 + i];
      }
    }
    {
#line 9 "two_blocks_2d.okl"
      int j = get_local_id(1);
      {
#line 10 "two_blocks_2d.okl"
        int i = get_local_id(0);
        z[b * 32 + j * 8 + i] = x[b * 32 + j * 8 + i] + 1.0f;
      }
    }
  }
}
