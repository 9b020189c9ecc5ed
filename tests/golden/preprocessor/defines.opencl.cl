#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 5 "defines.okl"
__kernel __attribute__((reqd_work_group_size(8, 8, 1))) void _okl_massMatrix_0(const int Nelements, __global const double *q, __global double *Mq, ulong _okl_off_q, ulong _okl_off_Mq) {
#line 7 "defines.okl"
  __local double s_q[8 * 8];
  q += _okl_off_q;
  Mq += _okl_off_Mq;
  {
#line 6 "defines.okl"
    int e = get_group_id(0);
    {
      int j = get_local_id(1);
      {
#line 9 "defines.okl"
        int i = get_local_id(0);
        s_q[i + 8 * j] = q[e * 64 + (i + 8 * j)];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 13 "defines.okl"
      int j = get_local_id(1);
      {
#line 14 "defines.okl"
        int i = get_local_id(0);
        Mq[e * 64 + (i + 8 * j)] = 0.5 * s_q[8 - 1 - i + 8 * j];
      }
    }
  }
}
