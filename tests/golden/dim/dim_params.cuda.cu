
#line 2 "dim_params.okl"
extern "C" __global__ void _okl_addMatrices_0(const int nx, const int ny, const float *A, const float *B, float *C) {
  {
    int j = blockIdx.x;
    {
#line 5 "dim_params.okl"
      int i = threadIdx.x;
      C[i + nx * j] = A[i + nx * j] + B[i + nx * j];
    }
  }
}
