#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 3 "restrict_params.okl"
__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void _okl_triad_0(const int n, const double s, __global const double * restrict a, __global const double * restrict b, __global double * restrict c, ulong _okl_off_a, ulong _okl_off_b, ulong _okl_off_c) {
  a += _okl_off_a;
  b += _okl_off_b;
  c += _okl_off_c;
  {
#line 5 "restrict_params.okl"
    int _okl_tiled_i = 128 * get_group_id(0);
    {
#line 5 "restrict_params.okl"
      int i = _okl_tiled_i + get_local_id(0);
#line 5 "restrict_params.okl"
      if (i < n) {
        c[i] = a[i] + s * b[i];
      }
    }
  }
}
