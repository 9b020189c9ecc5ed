
#line 9 "macro_extra_argument.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_copy_float_0(const int n, __global const float *a, __global float *b, ulong _okl_off_a, ulong _okl_off_b) {
  a += _okl_off_a;
  b += _okl_off_b;
  {
#line 9 "macro_extra_argument.okl"
    int _okl_tiled_i = 16 * get_group_id(0);
    {
#line 9 "macro_extra_argument.okl"
      int i = _okl_tiled_i + get_local_id(0);
#line 9 "macro_extra_argument.okl"
      if (i < n) {
#line 9 "macro_extra_argument.okl"
        b[i] = a[i];
      }
    }
  }
}

#line 10 "macro_extra_argument.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_copy_int_0(const int n, __global const int *a, __global int *b, ulong _okl_off_a, ulong _okl_off_b) {
  a += _okl_off_a;
  b += _okl_off_b;
  {
#line 10 "macro_extra_argument.okl"
    int _okl_tiled_i = 16 * get_group_id(0);
    {
#line 10 "macro_extra_argument.okl"
      int i = _okl_tiled_i + get_local_id(0);
#line 10 "macro_extra_argument.okl"
      if (i < n) {
#line 10 "macro_extra_argument.okl"
        b[i] = a[i];
      }
    }
  }
}
