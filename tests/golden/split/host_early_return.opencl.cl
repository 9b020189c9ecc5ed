
#line 2 "host_early_return.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_guarded_0(const int n, __global float *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
    int b = get_group_id(0);
    {
#line 6 "host_early_return.okl"
      int t = get_local_id(0);
      if (b * 16 + t < n) x[b * 16 + t] += 1.0f;
    }
  }
}
