#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 2 "const_arrays.okl"
__constant const int p_order = 3;

#line 3 "const_arrays.okl"
__constant const double gll_weights[4] = {1.0 / 6.0, 5.0 / 6.0, 5.0 / 6.0, 1.0 / 6.0};

#line 4 "const_arrays.okl"
__constant const float diff_matrix[2][2] = {{-0.5f, 0.5f}, {-0.5f, 0.5f}};

__kernel __attribute__((reqd_work_group_size(4, 1, 1))) void _okl_weights_0(const int ne, __global const double *u, __global double *wu, __global float *du, ulong _okl_off_u, ulong _okl_off_wu, ulong _okl_off_du) {
  u += _okl_off_u;
  wu += _okl_off_wu;
  du += _okl_off_du;
  {
#line 7 "const_arrays.okl"
    int e = get_group_id(0);
    {
#line 8 "const_arrays.okl"
      int i = get_local_id(0);
      wu[e * 4 + i] = gll_weights[i] * u[e * 4 + i] * p_order;
      if (i < 2) du[e * 2 + i] = diff_matrix[i][0] + diff_matrix[i][1];
    }
  }
}
