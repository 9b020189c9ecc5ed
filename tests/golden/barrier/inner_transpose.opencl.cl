
#line 5 "inner_transpose.okl"
__kernel __attribute__((reqd_work_group_size(16, 16, 1))) void _okl_transpose_0(const int n, __global const float *a, __global float *at, ulong _okl_off_a, ulong _okl_off_at) {
#line 8 "inner_transpose.okl"
  __local float tile[16][16 + 1];
  a += _okl_off_a;
  at += _okl_off_at;
  {
#line 6 "inner_transpose.okl"
    int by = get_group_id(1);
    {
#line 7 "inner_transpose.okl"
      int bx = get_group_id(0);
      {
        int j = get_local_id(1);
        const int row = bx * 16 + j;
        {
#line 11 "inner_transpose.okl"
          int i = get_local_id(0);
          int col = by * 16 + i;
          tile[j][i] = a[(by * 16 + j) * n + bx * 16 + i];
          barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
          at[row * n + col] = tile[i][j];
        }
      }
    }
  }
}
