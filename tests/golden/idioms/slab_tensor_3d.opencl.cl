#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 8 "slab_tensor_3d.okl"
__kernel __attribute__((reqd_work_group_size(4, 4, 1))) void _okl_stiffness_0(const int Nelements, __global const double *D, __global const double *q, __global double *Aq, ulong _okl_off_D, ulong _okl_off_q, ulong _okl_off_Aq) {
#line 10 "slab_tensor_3d.okl"
  __local double s_D[4][4];
  __local double s_q[4][4][4 + 1];
  D += _okl_off_D;
  q += _okl_off_q;
  Aq += _okl_off_Aq;
  {
#line 9 "slab_tensor_3d.okl"
    int e = get_group_id(0);
#line 12 "slab_tensor_3d.okl"
    double r_q[4];
#line 12 "slab_tensor_3d.okl"
    double r_Aq[4];
    {
      int j = get_local_id(1);
      {
#line 15 "slab_tensor_3d.okl"
        int i = get_local_id(0);
        s_D[j][i] = D[j * 4 + i];
        #pragma unroll 4
        for (int k = 0; k < 4; ++k) {
          r_q[k] = q[e * (4 * 4 * 4) + (k * 4 + j) * 4 + i];
          r_Aq[k] = 0.0;
        }
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 4; ++k) {
      {
#line 26 "slab_tensor_3d.okl"
        int j = get_local_id(1);
        {
#line 27 "slab_tensor_3d.okl"
          int i = get_local_id(0);
          s_q[k][j][i] = r_q[k];
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      {
#line 32 "slab_tensor_3d.okl"
        int j = get_local_id(1);
        {
#line 33 "slab_tensor_3d.okl"
          int i = get_local_id(0);
          double qr = 0.0;
#line 34 "slab_tensor_3d.okl"
          double qs = 0.0;
          #pragma unroll 4
          for (int m = 0; m < 4; ++m) {
            qr += s_D[i][m] * s_q[k][j][m];
            qs += s_D[j][m] * s_q[k][m][i];
          }
          r_Aq[k] += qr + qs;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    {
#line 45 "slab_tensor_3d.okl"
      int j = get_local_id(1);
      {
#line 46 "slab_tensor_3d.okl"
        int i = get_local_id(0);
        #pragma unroll 4
        for (int k = 0; k < 4; ++k) {
          Aq[e * (4 * 4 * 4) + (k * 4 + j) * 4 + i] = r_Aq[k];
        }
      }
    }
  }
}
