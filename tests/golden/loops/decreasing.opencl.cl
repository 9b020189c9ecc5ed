
#line 2 "decreasing.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_reverseCopy_0(const int n, __global const float *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 3 "decreasing.okl"
    int b = (n + 31) / 32 - 1 - get_group_id(0);
    {
#line 4 "decreasing.okl"
      int t = 31 - get_local_id(0);
      const int i = b * 32 + t;
      if (i < n) y[n - 1 - i] = x[i];
    }
  }
}
