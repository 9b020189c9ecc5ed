
#line 2 "dim_params.okl"
__kernel void _okl_addMatrices_0(const int nx, const int ny, __global const float *A, __global const float *B, __global float *C, ulong _okl_off_A, ulong _okl_off_B, ulong _okl_off_C) {
  A += _okl_off_A;
  B += _okl_off_B;
  C += _okl_off_C;
  {
#line 4 "dim_params.okl"
    int j = get_group_id(0);
    {
#line 5 "dim_params.okl"
      int i = get_local_id(0);
      C[i + nx * j] = A[i + nx * j] + B[i + nx * j];
    }
  }
}
