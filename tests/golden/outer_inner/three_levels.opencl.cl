
#line 2 "three_levels.okl"
__kernel __attribute__((reqd_work_group_size(8, 4, 2))) void _okl_box_0(const int nx, const int ny, const int nz, __global float *v, ulong _okl_off_v) {
  v += _okl_off_v;
  {
#line 3 "three_levels.okl"
    int bz = get_group_id(2);
    {
#line 4 "three_levels.okl"
      int by = get_group_id(1);
      {
#line 5 "three_levels.okl"
        int bx = get_group_id(0);
        {
#line 6 "three_levels.okl"
          int tz = get_local_id(2);
          {
#line 7 "three_levels.okl"
            int ty = get_local_id(1);
            {
#line 8 "three_levels.okl"
              int tx = get_local_id(0);
              const int x = bx * 8 + tx;
#line 9 "three_levels.okl"
              const int y = by * 4 + ty;
#line 9 "three_levels.okl"
              const int z = bz * 2 + tz;
              v[(z * ny * 4 + y) * nx * 8 + x] = x + y + z;
            }
          }
        }
      }
    }
  }
}
