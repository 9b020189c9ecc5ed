#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 3 "barrier_local_global.okl"
__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void _okl_legacyBarriers_0(const int nb, __global const double *x, __global double *y, ulong _okl_off_x, ulong _okl_off_y) {
#line 5 "barrier_local_global.okl"
  __local double s[8];
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 4 "barrier_local_global.okl"
    int b = get_group_id(0);
    {
      int t = get_local_id(0);
      s[t] = x[b * 8 + t];
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    {
#line 10 "barrier_local_global.okl"
      int t = get_local_id(0);
      y[b * 8 + t] = s[7 - t];
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    {
#line 14 "barrier_local_global.okl"
      int t = get_local_id(0);
      s[t] = y[b * 8 + t] + 1.0;
    }
  }
}
