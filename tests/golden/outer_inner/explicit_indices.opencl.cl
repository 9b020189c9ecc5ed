
#line 2 "explicit_indices.okl"
__kernel __attribute__((reqd_work_group_size(4, 2, 1))) void _okl_explicitAxes_0(const int nx, const int ny, __global float *grid, ulong _okl_off_grid) {
  grid += _okl_off_grid;
  {
#line 3 "explicit_indices.okl"
    int bx = get_group_id(0);
    {
#line 4 "explicit_indices.okl"
      int by = get_group_id(1);
      {
#line 5 "explicit_indices.okl"
        int tx = get_local_id(0);
        {
#line 6 "explicit_indices.okl"
          int ty = get_local_id(1);
          grid[((by * 2 + ty) * nx + bx) * 4 + tx] = bx + 10.0f * by;
        }
      }
    }
  }
}
