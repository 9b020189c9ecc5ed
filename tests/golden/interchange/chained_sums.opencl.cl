
#line 5 "chained_sums.okl"
__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void _okl_chained_0(const int N, __global const float * restrict a, __global const float * restrict b, __global float * restrict y, ulong _okl_off_a, ulong _okl_off_b, ulong _okl_off_y) {
#line 8 "chained_sums.okl"
  __local float s_a[8][8];
  __local float s_b[8][8];
  a += _okl_off_a;
  b += _okl_off_b;
  y += _okl_off_y;
  {
#line 7 "chained_sums.okl"
    int blk = get_group_id(0);
    {
#line 10 "chained_sums.okl"
      int t = get_local_id(0);
      for (int r = 0; r < 8; ++r) {
        s_a[r][t] = a[r * 8 + t];
        s_b[r][t] = b[r * 8 + t];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 16 "chained_sums.okl"
      int t = get_local_id(0);
      float acc = t;
      for (int m = 0; m < 8; ++m) {
        acc += s_a[m][t] * s_b[t][m];
        acc += s_b[m][t] * blk;
      }
      if (blk * 8 + t < N) y[blk * 8 + t] = acc;
    }
  }
}

__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void _okl_single_0(const int N, __global const float * restrict a, __global float * restrict y, ulong _okl_off_a, ulong _okl_off_y) {
#line 29 "chained_sums.okl"
  __local float s_a[8][8];
  a += _okl_off_a;
  y += _okl_off_y;
  {
#line 28 "chained_sums.okl"
    int blk = get_group_id(0);
    {
      int t = get_local_id(0);
      for (int r = 0; r < 8; ++r) {
        s_a[r][t] = a[r * 8 + t];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 35 "chained_sums.okl"
      int t = get_local_id(0);
      float acc = t;
      for (int m = 0; m < 8; ++m) {
        acc += s_a[m][t] * blk;
      }
      if (blk * 8 + t < N) y[blk * 8 + t] = acc;
    }
  }
}
