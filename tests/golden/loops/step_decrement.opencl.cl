
#line 2 "step_decrement.okl"
__kernel __attribute__((reqd_work_group_size(3, 1, 1))) void _okl_countdown_0(const int n, __global int *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 3 "step_decrement.okl"
    int b = n - 1 - 3 * get_group_id(0);
    {
#line 4 "step_decrement.okl"
      int t = 12 - 4 * get_local_id(0);
      x[b * 3 + t / 4 - 1] = b + t;
    }
  }
}
