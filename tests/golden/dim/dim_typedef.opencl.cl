
#line 4 "dim_typedef.okl"
typedef float *field3;

#line 5 "dim_typedef.okl"
typedef const float *cfield3;

__kernel __attribute__((reqd_work_group_size(4, 4, 1))) void _okl_gradient_0(const int ne, __global const float *u, __global float *du, ulong _okl_off_u, ulong _okl_off_du) {
  u += _okl_off_u;
  du += _okl_off_du;
  {
#line 8 "dim_typedef.okl"
    int e = get_group_id(0);
    {
#line 9 "dim_typedef.okl"
      int j = get_local_id(1);
      {
#line 10 "dim_typedef.okl"
        int i = get_local_id(0);
        __global const float *ue = u + e * 4 * 4 * 4;
        for (int k = 0; k < 4; ++k) {
          du[i + 4 * (j + 4 * (k + e * 4))] = ue[(i + 1) % 4 + 4 * (j + 4 * k)] - ue[i + 4 * (j + 4 * k)];
        }
      }
    }
  }
}
