
#line 3 "exclusive_nested_outer.okl"
__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void _okl_nestedExclusive_0(const int n, __global float *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 4 "exclusive_nested_outer.okl"
    int b = get_group_id(1);
    {
      int c = get_group_id(0);
#line 5 "exclusive_nested_outer.okl"
      float r;
      {
        int t = get_local_id(0);
        r = b * 100 + c * 10 + t;
      }
      {
#line 10 "exclusive_nested_outer.okl"
        int t = get_local_id(0);
        x[(b * 3 + c) * 8 + t] = 2 * r;
      }
    }
  }
}
