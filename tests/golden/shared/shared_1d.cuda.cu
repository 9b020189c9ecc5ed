
#line 4 "shared_1d.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_reverseBlocks_0(const int n, const float *x, float *y) {
  {
#line 5 "shared_1d.okl"
    int b = blockIdx.x;
    __shared__ float s[64];
    {
#line 7 "shared_1d.okl"
      int t = threadIdx.x;
      s[t] = x[b * 64 + t];
    }
    __syncthreads();
    {
#line 10 "shared_1d.okl"
      int t = threadIdx.x;
      y[b * 64 + t] = s[64 - 1 - t];
    }
  }
}
