
#line 4 "auto_barrier_rules.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_rules_0(const int nb, __global const float *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
#line 6 "auto_barrier_rules.okl"
  __local float s[16];
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 5 "auto_barrier_rules.okl"
    int b = get_group_id(0);
    {
      int t = get_local_id(0);
      s[t] = x[b * 16 + t];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 10 "auto_barrier_rules.okl"
      int t = get_local_id(0);
      y[b * 16 + t] = 0.0f;
    }
    {
#line 13 "auto_barrier_rules.okl"
      int t = get_local_id(0);
      y[b * 16 + t] = s[t] + s[15 - t];
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    {
#line 17 "auto_barrier_rules.okl"
      int t = get_local_id(0);
      s[t] *= 2.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 20 "auto_barrier_rules.okl"
      int t = get_local_id(0);
      y[b * 16 + t] += s[t];
    }
  }
}
