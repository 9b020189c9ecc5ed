
#line 5 "conditional_blocks.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_variants_0(const int nb, __global const float *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
#line 7 "conditional_blocks.okl"
  __local float s[32];
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 6 "conditional_blocks.okl"
    int b = get_group_id(0);
    {
      int t = get_local_id(0);
      s[t] = x[b * 32 + t];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 16 "conditional_blocks.okl"
      int t = get_local_id(0);
      s[t] += s[31 - t];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 20 "conditional_blocks.okl"
      int t = get_local_id(0);
#line 22 "conditional_blocks.okl"
      y[b * 32 + t] = s[t] + 1.0f;
    }
  }
}
