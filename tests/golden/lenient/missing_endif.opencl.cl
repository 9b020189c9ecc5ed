
#line 4 "missing_endif.okl"
__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void _okl_fill_0(const int n, __global float *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 5 "missing_endif.okl"
    int b = get_group_id(0);
    {
#line 6 "missing_endif.okl"
      int t = get_local_id(0);
      x[b * 8 + t] = 1.0f;
    }
  }
}
