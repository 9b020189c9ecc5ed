
#line 4 "pragma_unroll.okl"
__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void _okl_contract_0(const int ne, __global const float *D, __global const float *u, __global float *du, ulong _okl_off_D, ulong _okl_off_u, ulong _okl_off_du) {
#line 6 "pragma_unroll.okl"
  __local float s_D[8][8];
  __local float s_u[8];
  D += _okl_off_D;
  u += _okl_off_u;
  du += _okl_off_du;
  {
#line 5 "pragma_unroll.okl"
    int e = get_group_id(0);
    {
#line 8 "pragma_unroll.okl"
      int i = get_local_id(0);
      #pragma unroll 8
      for (int j = 0; j < 8; ++j) s_D[i][j] = D[i * 8 + j];
      s_u[i] = u[e * 8 + i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 13 "pragma_unroll.okl"
      int i = get_local_id(0);
      float r = 0.0f;
      #pragma unroll
      for (int j = 0; j < 8; ++j) {
        r += s_D[i][j] * s_u[j];
      }
      du[e * 8 + i] = r;
    }
  }
}
