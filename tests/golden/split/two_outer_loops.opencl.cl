
#line 2 "two_outer_loops.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_twoPasses_0(const int n, __global const float *x, __global float *y, __global float *z, ulong _okl_off_x, ulong _okl_off_y, ulong _okl_off_z) {
  x += _okl_off_x;
  y += _okl_off_y;
  z += _okl_off_z;
  {
#line 3 "two_outer_loops.okl"
    int b = get_group_id(0);
    {
#line 4 "two_outer_loops.okl"
      int t = get_local_id(0);
      y[b * 32 + t] = 2.0f * x[b * 32 + t];
    }
  }
}

#line 2 "two_outer_loops.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_twoPasses_1(const int n, __global const float *x, __global float *y, __global float *z, ulong _okl_off_x, ulong _okl_off_y, ulong _okl_off_z) {
  x += _okl_off_x;
  y += _okl_off_y;
  z += _okl_off_z;
  {
#line 8 "two_outer_loops.okl"
    int b = get_group_id(0);
    {
#line 9 "two_outer_loops.okl"
      int t = get_local_id(0);
      z[b * 32 + t] = y[b * 32 + t] + y[(b + 1) % n * 32 + t];
    }
  }
}
