
#line 4 "inner_scan.okl"
__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void _okl_scan_0(const int nb, __global const int *x, __global int *y, ulong _okl_off_x, ulong _okl_off_y) {
#line 6 "inner_scan.okl"
  __local int s[128];
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 5 "inner_scan.okl"
    int b = get_group_id(0);
    {
      int t = get_local_id(0);
      const int n = 128;
      s[t] = x[b * n + t];
      for (int d = 1; d < n; d *= 2) {
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        int v = 0;
        if (t >= d) v = s[t - d];
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        s[t] += v;
      }
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      y[b * n + t] = s[t];
    }
  }
}
