
#line 4 "pragma_unroll.okl"
extern "C" __global__ __launch_bounds__(8) void _okl_contract_0(const int ne, const float *D, const float *u, float *du) {
  {
#line 5 "pragma_unroll.okl"
    int e = blockIdx.x;
    __shared__ float s_D[8][8];
    __shared__ float s_u[8];
    {
#line 8 "pragma_unroll.okl"
      int i = threadIdx.x;
      #pragma unroll 8
      for (int j = 0; j < 8; ++j) s_D[i][j] = D[i * 8 + j];
      s_u[i] = u[e * 8 + i];
    }
    __syncthreads();
    {
#line 13 "pragma_unroll.okl"
      int i = threadIdx.x;
      float r = 0.0f;
      #pragma unroll
      for (int j = 0; j < 8; ++j) {
        r += s_D[i][j] * s_u[j];
      }
      du[e * 8 + i] = r;
    }
  }
}
