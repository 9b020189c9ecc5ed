#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 2 "iterator_types.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_wide_0(const long n, const unsigned int m, __global double *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 3 "iterator_types.okl"
    long b = (long) get_group_id(0);
    {
#line 4 "iterator_types.okl"
      unsigned int t = (unsigned int) get_local_id(0);
      x[b * 32 + t] = 0.5 * t;
    }
  }
}

#line 2 "iterator_types.okl"
__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void _okl_wide_1(const long n, const unsigned int m, __global double *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 8 "iterator_types.okl"
    size_t b = (unsigned long) get_group_id(0);
    {
#line 9 "iterator_types.okl"
      size_t t = (unsigned long) get_local_id(0);
      x[b * 8 + t] += 1.0;
    }
  }
}

#line 2 "iterator_types.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_wide_2(const long n, const unsigned int m, __global double *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 13 "iterator_types.okl"
    unsigned long b = 2 * ((unsigned long) get_group_id(0));
    {
#line 14 "iterator_types.okl"
      long t = 1 * ((long) get_local_id(0));
      x[b * 16 + t] *= 2.0;
    }
  }
}
