
#line 2 "flipped_comparison.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_flipped_0(const int n, __global float *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 3 "flipped_comparison.okl"
    int b = get_group_id(0);
    {
#line 4 "flipped_comparison.okl"
      int t = 15 - get_local_id(0);
      x[b * 16 + t] = (float) t;
    }
  }
}
