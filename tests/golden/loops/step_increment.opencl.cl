
#line 2 "step_increment.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_strided_0(const int n, __global float *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 3 "step_increment.okl"
    int b = 64 * get_group_id(0);
    {
#line 4 "step_increment.okl"
      int t = 2 * get_local_id(0);
      if (b + t < n) x[b + t] = 1.0f;
      if (b + t + 1 < n) x[b + t + 1] = 2.0f;
    }
  }
}
