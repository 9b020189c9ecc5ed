#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 9 "element_blocking.okl"
__kernel __attribute__((reqd_work_group_size(16, 4, 1))) void _okl_scaleElements_0(const int Nelements, __global const int *elementIds, __global const double *wJ, __global double *q, ulong _okl_off_elementIds, ulong _okl_off_wJ, ulong _okl_off_q) {
#line 12 "element_blocking.okl"
  __local double s_w[4];
  elementIds += _okl_off_elementIds;
  wJ += _okl_off_wJ;
  q += _okl_off_q;
  {
#line 11 "element_blocking.okl"
    int eo = 4 * get_group_id(0);
#line 13 "element_blocking.okl"
    int r_e;
#line 13 "element_blocking.okl"
    int element;
    {
      int es = get_local_id(1);
      {
#line 16 "element_blocking.okl"
        int n = get_local_id(0);
        r_e = eo + es;
        element = (r_e < Nelements) ? (elementIds[r_e]) : (-1);
        if (n == 0 && element >= 0) s_w[es] = wJ[element];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 23 "element_blocking.okl"
      int es = get_local_id(1);
      {
#line 24 "element_blocking.okl"
        int n = get_local_id(0);
        if (element >= 0) q[element * 16 + n] *= s_w[es];
      }
    }
  }
}
