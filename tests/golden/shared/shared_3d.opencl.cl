#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 4 "shared_3d.okl"
__kernel __attribute__((reqd_work_group_size(4, 4, 1))) void _okl_cubeSums_0(const int ne, __global const double *u, __global double *sums, ulong _okl_off_u, ulong _okl_off_sums) {
#line 6 "shared_3d.okl"
  __local double s_u[4][4][4];
  __local double s_col[4][4];
  u += _okl_off_u;
  sums += _okl_off_sums;
  {
#line 5 "shared_3d.okl"
    int e = get_group_id(0);
    {
#line 8 "shared_3d.okl"
      int j = get_local_id(1);
      {
#line 9 "shared_3d.okl"
        int i = get_local_id(0);
        for (int k = 0; k < 4; ++k) {
          s_u[k][j][i] = u[e * 4 * 4 * 4 + (k * 4 + j) * 4 + i];
        }
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 15 "shared_3d.okl"
      int j = get_local_id(1);
      {
#line 16 "shared_3d.okl"
        int i = get_local_id(0);
        double acc = 0.0;
        for (int k = 0; k < 4; ++k) acc += s_u[k][j][i];
        s_col[j][i] = acc;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 22 "shared_3d.okl"
      int j = get_local_id(1);
      {
#line 23 "shared_3d.okl"
        int i = get_local_id(0);
        sums[e * 4 * 4 + j * 4 + i] = s_col[j][i] + s_col[i][j];
      }
    }
  }
}
