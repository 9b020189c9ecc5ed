
#line 3 "host_code_between.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_pipeline_0(const int n, const float alpha, __global const float *x, __global float *y, const float scale, ulong _okl_off_x, ulong _okl_off_y) {
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 6 "host_code_between.okl"
    int b = get_group_id(0);
    {
#line 7 "host_code_between.okl"
      int t = get_local_id(0);
      const int i = b * 64 + t;
      if (i < n) y[i] = scale * x[i];
    }
  }
}

#line 3 "host_code_between.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_pipeline_1(const int n, const float alpha, __global const float *x, __global float *y, const long offset, ulong _okl_off_x, ulong _okl_off_y) {
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 14 "host_code_between.okl"
    int b = get_group_id(0);
    {
#line 15 "host_code_between.okl"
      int t = get_local_id(0);
      const long i = offset + b * 64 + t;
      if (i < n) y[i] += alpha;
    }
  }
}
