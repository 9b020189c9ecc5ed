#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 8 "slab_column.okl"
__kernel __attribute__((reqd_work_group_size(4, 4, 1))) void _okl_slab_0(const int E, __global const double * restrict D, __global const double * restrict q, __global double * restrict out, ulong _okl_off_D, ulong _okl_off_q, ulong _okl_off_out) {
#line 11 "slab_column.okl"
  __local double s_D[4][4];
  __local double s_g[4][4];
  D += _okl_off_D;
  q += _okl_off_q;
  out += _okl_off_out;
  {
#line 10 "slab_column.okl"
    int e = get_group_id(0);
#line 13 "slab_column.okl"
    double r_q[4];
    double r_col[4];
    double r_t;
    {
#line 16 "slab_column.okl"
      int j = get_local_id(1);
      {
#line 17 "slab_column.okl"
        int i = get_local_id(0);
        s_D[j][i] = D[j * 4 + i];
        for (int k = 0; k < 4; ++k) {
          r_q[k] = q[((e * 4 + k) * 4 + j) * 4 + i];
          r_col[k] = 0;
        }
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#line 25 "slab_column.okl"
    for (int k = 0; k < 4; ++k) {
      {
#line 26 "slab_column.okl"
        int j = get_local_id(1);
        {
#line 27 "slab_column.okl"
          int i = get_local_id(0);
          r_t = 0;
          for (int m = 0; m < 4; ++m) {
            r_t += s_D[k][m] * r_q[m];
          }
          s_g[j][i] = r_t * r_q[k];
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      {
#line 35 "slab_column.okl"
        int j = get_local_id(1);
        {
#line 36 "slab_column.okl"
          int i = get_local_id(0);
          double a = s_g[j][i];
          for (int m = 0; m < 4; ++m) {
            a += s_D[m][i] * s_g[j][m];
            r_col[m] += s_D[k][m] * r_t;
          }
          r_col[k] += a;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    {
#line 46 "slab_column.okl"
      int j = get_local_id(1);
      {
#line 47 "slab_column.okl"
        int i = get_local_id(0);
        for (int k = 0; k < 4; ++k) {
          out[((e * 4 + k) * 4 + j) * 4 + i] = r_col[k];
        }
      }
    }
  }
}
