
#line 5 "inner_private.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_privates_0(const int nb, const int mode, const int *x, int *y) {
  {
#line 6 "inner_private.okl"
    int b = blockIdx.x;
    __shared__ int s[32];
    int e;
    {
#line 9 "inner_private.okl"
      int t = threadIdx.x;
      int mine = x[b * 32 + t];
      int acc[3] = {1, 2};
      const int half = 16;
      e = mine * 2;
      s[t] = mine;
      if (mode > 0) {
        __syncthreads();
        acc[2] = s[31 - t];
      } else {
        __syncthreads();
        acc[2] = s[(t + 1) % 32];
      }
      for (int r = 0; r < 8; ++r) {
        if (r == 5) break;
        if (r == 1) continue;
        __syncthreads();
        acc[0] += s[(t + r) % 32];
        for (int q = 0; q < 4; ++q) {
          if (q == r) break;
          acc[1] += q;
        }
        __syncthreads();
      }
      s[t] = acc[0] + acc[1] + acc[2] + e + ((t < half) ? (1) : (0));
      __syncthreads();
      y[b * 32 + t] = s[t] + mine;
    }
  }
}
