#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 2 "check_false.okl"
__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void _okl_noCheck_0(const int n, __global const double *x, __global double *y, ulong _okl_off_x, ulong _okl_off_y) {
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 3 "check_false.okl"
    int _okl_tiled_i = 128 * get_group_id(0);
    {
#line 3 "check_false.okl"
      int i = _okl_tiled_i + get_local_id(0);
      y[i] = x[i] * x[i];
    }
  }
}
