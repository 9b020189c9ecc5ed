
#line 5 "inner_private.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_privates_0(const int nb, const int mode, __global const int *x, __global int *y, ulong _okl_off_x, ulong _okl_off_y) {
#line 7 "inner_private.okl"
  __local int s[32];
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 6 "inner_private.okl"
    int b = get_group_id(0);
#line 8 "inner_private.okl"
    int e;
    {
#line 9 "inner_private.okl"
      int t = get_local_id(0);
      int mine = x[b * 32 + t];
      int acc[3] = {1, 2};
      const int _okl_half = 16;
      e = mine * 2;
      s[t] = mine;
      if (mode > 0) {
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        acc[2] = s[31 - t];
      } else {
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        acc[2] = s[(t + 1) % 32];
      }
      for (int r = 0; r < 8; ++r) {
        if (r == 5) break;
        if (r == 1) continue;
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        acc[0] += s[(t + r) % 32];
        for (int q = 0; q < 4; ++q) {
          if (q == r) break;
          acc[1] += q;
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      }
      s[t] = acc[0] + acc[1] + acc[2] + e + ((t < _okl_half) ? (1) : (0));
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      y[b * 32 + t] = s[t] + mine;
    }
  }
}
