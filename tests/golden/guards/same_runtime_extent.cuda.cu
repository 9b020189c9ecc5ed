
#line 2 "same_runtime_extent.okl"
extern "C" __global__ void _okl_sameExtent_0(const int nb, const int m, const float *x, float *y) {
  {
#line 3 "same_runtime_extent.okl"
    int b = blockIdx.x;
    __shared__ float s[256];
    {
#line 5 "same_runtime_extent.okl"
      int t = threadIdx.x;
      s[t] = x[b * m + t];
    }
    __syncthreads();
    {
#line 8 "same_runtime_extent.okl"
      int t = threadIdx.x;
      y[b * m + t] = s[m - 1 - t];
    }
  }
}
