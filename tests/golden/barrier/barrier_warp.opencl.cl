
#line 2 "barrier_warp.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_warpSum_0(const int nb, __global const int *x, __global int *out, ulong _okl_off_x, ulong _okl_off_out) {
#line 4 "barrier_warp.okl"
  __local int s[32];
  x += _okl_off_x;
  out += _okl_off_out;
  {
#line 3 "barrier_warp.okl"
    int b = get_group_id(0);
    {
      int t = get_local_id(0);
      s[t] = x[b * 32 + t];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 9 "barrier_warp.okl"
      int t = get_local_id(0);
      if (t < 16) s[t] += s[t + 16];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 13 "barrier_warp.okl"
      int t = get_local_id(0);
      if (t == 0) out[b] = s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7] + s[8] + s[9] + s[10] + s[11] + s[12] + s[13] + s[14] + s[15];
    }
  }
}
