
#line 4 "inner_scan.okl"
extern "C" __global__ __launch_bounds__(128) void _okl_scan_0(const int nb, const int *x, int *y) {
  {
#line 5 "inner_scan.okl"
    int b = blockIdx.x;
    __shared__ int s[128];
    {
#line 7 "inner_scan.okl"
      int t = threadIdx.x;
      const int n = 128;
      s[t] = x[b * n + t];
      for (int d = 1; d < n; d *= 2) {
        __syncthreads();
        int v = 0;
        if (t >= d) v = s[t - d];
        __syncthreads();
        s[t] += v;
      }
      __syncthreads();
      y[b * n + t] = s[t];
    }
  }
}
