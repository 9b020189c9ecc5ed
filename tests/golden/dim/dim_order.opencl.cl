#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 3 "dim_order.okl"
__kernel void _okl_transposeView_0(const int n, const int m, __global const double *S, __global double *T, ulong _okl_off_S, ulong _okl_off_T) {
  S += _okl_off_S;
  T += _okl_off_T;
  {
#line 5 "dim_order.okl"
    int j = get_group_id(0);
    {
#line 6 "dim_order.okl"
      int i = get_local_id(0);
      T[j + m * i] = S[i + n * j];
    }
  }
}
