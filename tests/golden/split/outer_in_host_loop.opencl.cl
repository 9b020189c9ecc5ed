
#line 3 "outer_in_host_loop.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_smooth_0(const int n, const int iterations, __global float *u, __global float *tmp, const float w, ulong _okl_off_u, ulong _okl_off_tmp) {
  u += _okl_off_u;
  tmp += _okl_off_tmp;
  {
#line 6 "outer_in_host_loop.okl"
    int b = get_group_id(0);
    {
#line 7 "outer_in_host_loop.okl"
      int t = get_local_id(0);
      const int i = b * 32 + t;
      tmp[i] = u[i] + w * (u[(i + 1) % (32 * n)] - u[i]);
    }
  }
}

#line 3 "outer_in_host_loop.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_smooth_1(const int n, const int iterations, __global float *u, __global float *tmp, const int it, ulong _okl_off_u, ulong _okl_off_tmp) {
  u += _okl_off_u;
  tmp += _okl_off_tmp;
  {
#line 12 "outer_in_host_loop.okl"
    int b = get_group_id(0);
    {
#line 13 "outer_in_host_loop.okl"
      int t = get_local_id(0);
      u[b * 32 + t] = tmp[b * 32 + t] + it;
    }
  }
}
