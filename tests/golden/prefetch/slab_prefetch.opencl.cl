#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 7 "slab_prefetch.okl"
__kernel __attribute__((reqd_work_group_size(4, 4, 1))) void _okl_slab_0(const int E, __global const double * restrict g, __global const double * restrict q, __global double * restrict out, ulong _okl_off_g, ulong _okl_off_q, ulong _okl_off_out) {
#line 10 "slab_prefetch.okl"
  __local double s_a[4][4];
  g += _okl_off_g;
  q += _okl_off_q;
  out += _okl_off_out;
  {
#line 9 "slab_prefetch.okl"
    int e = get_group_id(0);
#line 11 "slab_prefetch.okl"
    for (int k = 0; k < 4; ++k) {
      {
#line 12 "slab_prefetch.okl"
        int j = get_local_id(1);
        {
#line 13 "slab_prefetch.okl"
          int i = get_local_id(0);
          const int n = e * 2 * 4 * 4 * 4 + k * 4 * 4 + j * 4 + i;
          s_a[j][i] = g[n] * q[((e * 4 + k) * 4 + j) * 4 + i] + g[n + 4 * 4 * 4];
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      {
#line 18 "slab_prefetch.okl"
        int j = get_local_id(1);
        {
#line 19 "slab_prefetch.okl"
          int i = get_local_id(0);
          out[((e * 4 + k) * 4 + j) * 4 + i] = s_a[i][j] - 2 * s_a[j][i];
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
}
