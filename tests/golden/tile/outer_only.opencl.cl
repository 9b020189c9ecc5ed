
#line 2 "outer_only.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_rowsPerGroup_0(const int rows, __global const float *a, __global float *b, ulong _okl_off_a, ulong _okl_off_b) {
  a += _okl_off_a;
  b += _okl_off_b;
  {
#line 3 "outer_only.okl"
    int _okl_tiled_r = 4 * get_group_id(0);
#line 3 "outer_only.okl"
    for (int r = _okl_tiled_r; r < _okl_tiled_r + 4; ++r) {
#line 3 "outer_only.okl"
      if (r < rows) {
        {
#line 4 "outer_only.okl"
          int c = get_local_id(0);
          b[r * 64 + c] = 2.0f * a[r * 64 + c];
        }
      }
    }
  }
}
