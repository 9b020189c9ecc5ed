
#line 2 "shared_volatile.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_lastWarp_0(const int nb, __global const int *x, __global int *out, ulong _okl_off_x, ulong _okl_off_out) {
#line 4 "shared_volatile.okl"
  __local volatile int s[32];
  x += _okl_off_x;
  out += _okl_off_out;
  {
#line 3 "shared_volatile.okl"
    int b = get_group_id(0);
    {
      int t = get_local_id(0);
      s[t] = x[b * 32 + t];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 8 "shared_volatile.okl"
      int t = get_local_id(0);
      if (t == 0) {
        int total = 0;
        for (int k = 0; k < 32; ++k) total += s[k];
        out[b] = total;
      }
    }
  }
}
