#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 2 "host_branches.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_chooser_0(const int n, const int mode, __global double *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 4 "host_branches.okl"
    int b = get_group_id(0);
    {
#line 5 "host_branches.okl"
      int t = get_local_id(0);
      x[b * 16 + t] = 0.0;
    }
  }
}

#line 2 "host_branches.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_chooser_1(const int n, const int mode, __global double *x, const double v, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 11 "host_branches.okl"
    int b = get_group_id(0);
    {
#line 12 "host_branches.okl"
      int t = get_local_id(0);
      x[b * 16 + t] = v;
    }
  }
}
