
#line 5 "blocked_sum.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_blockedSum_0(const int N, const float * __restrict__ x, float * __restrict__ partial) {
  {
#line 6 "blocked_sum.okl"
    int b = blockIdx.x;
    __shared__ float s[64];
    float r;
    {
      r = 0;
    }
    for (int u = 0; u < 4; ++u) {
      {
#line 13 "blocked_sum.okl"
        int t = threadIdx.x;
        const int i = (b * 4 + u) * 64 + t;
        if (i < N) r += x[i];
      }
    }
    {
#line 18 "blocked_sum.okl"
      int t = threadIdx.x;
      s[t] = r;
    }
    __syncthreads();
#line 21 "blocked_sum.okl"
    for (int n = 64 / 2; n > 0; n /= 2) {
      {
#line 22 "blocked_sum.okl"
        int t = threadIdx.x;
        if (t < n) s[t] += s[t + n];
      }
      __syncthreads();
    }
    {
#line 26 "blocked_sum.okl"
      int t = threadIdx.x;
      if (t == 0) partial[b] = s[0];
    }
  }
}
