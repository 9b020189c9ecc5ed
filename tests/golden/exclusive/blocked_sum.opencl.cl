
#line 5 "blocked_sum.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_blockedSum_0(const int N, __global const float * restrict x, __global float * restrict partial, ulong _okl_off_x, ulong _okl_off_partial) {
#line 7 "blocked_sum.okl"
  __local float s[64];
  x += _okl_off_x;
  partial += _okl_off_partial;
  {
#line 6 "blocked_sum.okl"
    int b = get_group_id(0);
#line 8 "blocked_sum.okl"
    float r;
    {
      r = 0;
    }
    for (int u = 0; u < 4; ++u) {
      {
#line 13 "blocked_sum.okl"
        int t = get_local_id(0);
        const int i = (b * 4 + u) * 64 + t;
        if (i < N) r += x[i];
      }
    }
    {
#line 18 "blocked_sum.okl"
      int t = get_local_id(0);
      s[t] = r;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#line 21 "blocked_sum.okl"
    for (int n = 64 / 2; n > 0; n /= 2) {
      {
#line 22 "blocked_sum.okl"
        int t = get_local_id(0);
        if (t < n) s[t] += s[t + n];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    {
#line 26 "blocked_sum.okl"
      int t = get_local_id(0);
      if (t == 0) partial[b] = s[0];
    }
  }
}
