
#line 3 "inner_reduction.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_blockSum_0(const int nb, const float *x, float *out) {
  {
#line 4 "inner_reduction.okl"
    int b = blockIdx.x;
    __shared__ float s[64];
    {
#line 6 "inner_reduction.okl"
      int t = threadIdx.x;
      s[t] = x[b * 64 + t];
      for (int w = 32; w > 0; w /= 2) {
        __syncthreads();
        if (t < w) s[t] += s[t + w];
      }
      if (t == 0) out[b] = s[0];
    }
  }
}
