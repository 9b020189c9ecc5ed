
#line 3 "blocks_in_loop.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_relax_0(const int nb, const int sweeps, __global float *x, ulong _okl_off_x) {
#line 5 "blocks_in_loop.okl"
  __local float s[32];
  __local float t_new[32];
  x += _okl_off_x;
  {
#line 4 "blocks_in_loop.okl"
    int b = get_group_id(0);
    {
#line 7 "blocks_in_loop.okl"
      int t = get_local_id(0);
      s[t] = x[b * 32 + t];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#line 10 "blocks_in_loop.okl"
    for (int it = 0; it < sweeps; ++it) {
      {
#line 11 "blocks_in_loop.okl"
        int t = get_local_id(0);
        const float left = s[(t + 31) % 32];
#line 12 "blocks_in_loop.okl"
        const float right = s[(t + 1) % 32];
        t_new[t] = 0.5f * (left + right);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      {
#line 15 "blocks_in_loop.okl"
        int t = get_local_id(0);
        s[t] = t_new[t];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    {
#line 19 "blocks_in_loop.okl"
      int t = get_local_id(0);
      x[b * 32 + t] = s[t];
    }
  }
}
