
#line 3 "nested.okl"
__kernel __attribute__((reqd_work_group_size(16, 4, 1))) void _okl_nestedTiles_0(const int rows, const int cols, __global const float *a, __global float *b, ulong _okl_off_a, ulong _okl_off_b) {
  a += _okl_off_a;
  b += _okl_off_b;
  {
#line 4 "nested.okl"
    int _okl_tiled_r = 4 * get_group_id(1);
    {
#line 5 "nested.okl"
      int _okl_tiled_c = 16 * get_group_id(0);
      {
#line 4 "nested.okl"
        int r = _okl_tiled_r + get_local_id(1);
#line 4 "nested.okl"
        if (r < rows) {
          {
#line 5 "nested.okl"
            int c = _okl_tiled_c + get_local_id(0);
#line 5 "nested.okl"
            if (c < cols) {
              b[c * rows + r] = a[r * cols + c];
            }
          }
        }
      }
    }
  }
}
