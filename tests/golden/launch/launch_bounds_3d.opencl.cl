#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 2 "launch_bounds_3d.okl"
__kernel __attribute__((reqd_work_group_size(8, 4, 2))) void _okl_cube_0(const int ne, __global double *v, ulong _okl_off_v) {
  v += _okl_off_v;
  {
#line 3 "launch_bounds_3d.okl"
    int e = get_group_id(0);
    {
#line 4 "launch_bounds_3d.okl"
      int k = get_local_id(2);
      {
#line 5 "launch_bounds_3d.okl"
        int j = get_local_id(1);
        {
#line 6 "launch_bounds_3d.okl"
          int i = get_local_id(0);
          v[((e * 2 + k) * 4 + j) * 8 + i] = i + 10 * j + 100 * k;
        }
      }
    }
  }
}
