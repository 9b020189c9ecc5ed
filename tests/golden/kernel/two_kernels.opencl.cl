
#line 2 "two_kernels.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_fill_0(const int n, const float value, __global float *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 3 "two_kernels.okl"
    int b = get_group_id(0);
    {
#line 4 "two_kernels.okl"
      int t = get_local_id(0);
      const int i = b * 64 + t;
      if (i < n) x[i] = value;
    }
  }
}

__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void _okl_scale_0(const int n, const float factor, __global float *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 12 "two_kernels.okl"
    int b = get_group_id(0);
    {
#line 13 "two_kernels.okl"
      int t = get_local_id(0);
      const int i = b * 128 + t;
      if (i < n) x[i] *= factor;
    }
  }
}
