
#line 4 "auto_barrier_rules.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_rules_0(const int nb, const float *x, float *y) {
  {
#line 5 "auto_barrier_rules.okl"
    int b = blockIdx.x;
    __shared__ float s[16];
    {
#line 7 "auto_barrier_rules.okl"
      int t = threadIdx.x;
      s[t] = x[b * 16 + t];
    }
    __syncthreads();
    {
#line 10 "auto_barrier_rules.okl"
      int t = threadIdx.x;
      y[b * 16 + t] = 0.0f;
    }
    {
#line 13 "auto_barrier_rules.okl"
      int t = threadIdx.x;
      y[b * 16 + t] = s[t] + s[15 - t];
    }
    __syncthreads();
    {
#line 17 "auto_barrier_rules.okl"
      int t = threadIdx.x;
      s[t] *= 2.0f;
    }
    __syncthreads();
    {
#line 20 "auto_barrier_rules.okl"
      int t = threadIdx.x;
      y[b * 16 + t] += s[t];
    }
  }
}
