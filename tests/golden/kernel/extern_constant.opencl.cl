
#line 4 "extern_constant.okl"
__constant const int weights[4] = {1, 2, 3, 4};

__kernel __attribute__((reqd_work_group_size(4, 1, 1))) void _okl_weigh_0(const int n, __global const int *x, __global int *y, ulong _okl_off_x, ulong _okl_off_y) {
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 7 "extern_constant.okl"
    int b = get_group_id(0);
    {
#line 8 "extern_constant.okl"
      int i = get_local_id(0);
      y[b * 4 + i] = weights[i] * x[b * 4 + i];
    }
  }
}
