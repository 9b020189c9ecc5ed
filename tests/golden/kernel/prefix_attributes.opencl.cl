#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 3 "prefix_attributes.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_copyPrefix_0(const int n, __global const double * restrict src, __global double * restrict dst, ulong _okl_off_src, ulong _okl_off_dst) {
  src += _okl_off_src;
  dst += _okl_off_dst;
  {
#line 4 "prefix_attributes.okl"
    int b = get_group_id(0);
    {
#line 5 "prefix_attributes.okl"
      int t = get_local_id(0);
      const int i = b * 32 + t;
      if (i < n) dst[i] = src[i];
    }
  }
}
