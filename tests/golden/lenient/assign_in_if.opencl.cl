
#line 14 "assign_in_if.okl"
__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void _okl_scale_0(const int n, __global float *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 15 "assign_in_if.okl"
    int b = get_group_id(0);
    {
#line 16 "assign_in_if.okl"
      int t = get_local_id(0);
      x[b * 8 + t] *= 2.0f;
    }
  }
}
