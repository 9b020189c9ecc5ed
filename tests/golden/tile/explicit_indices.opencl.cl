
#line 2 "explicit_indices.okl"
__kernel __attribute__((reqd_work_group_size(32, 8, 1))) void _okl_scale2d_0(const int rows, const int cols, __global float *m, ulong _okl_off_m) {
  m += _okl_off_m;
  {
#line 3 "explicit_indices.okl"
    int _okl_tiled_r = 8 * get_group_id(1);
    {
#line 4 "explicit_indices.okl"
      int _okl_tiled_c = 32 * get_group_id(0);
      {
#line 3 "explicit_indices.okl"
        int r = _okl_tiled_r + get_local_id(1);
#line 3 "explicit_indices.okl"
        if (r < rows) {
          {
#line 4 "explicit_indices.okl"
            int c = _okl_tiled_c + get_local_id(0);
#line 4 "explicit_indices.okl"
            if (c < cols) {
              m[r * cols + c] *= 0.5f;
            }
          }
        }
      }
    }
  }
}
