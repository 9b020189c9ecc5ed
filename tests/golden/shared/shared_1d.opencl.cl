
#line 4 "shared_1d.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_reverseBlocks_0(const int n, __global const float *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
#line 6 "shared_1d.okl"
  __local float s[64];
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 5 "shared_1d.okl"
    int b = get_group_id(0);
    {
      int t = get_local_id(0);
      s[t] = x[b * 64 + t];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 10 "shared_1d.okl"
      int t = get_local_id(0);
      y[b * 64 + t] = s[64 - 1 - t];
    }
  }
}
