
#line 5 "histogram.okl"
extern "C" __global__ __launch_bounds__(256) void _okl_histogram_0(const int n, const float lo, const float width, const float *x, unsigned int *bins) {
  {
    int g = blockIdx.x;
    __shared__ unsigned int s_bins[16];
    {
#line 9 "histogram.okl"
      int t = threadIdx.x;
      if (t < 16) s_bins[t] = 0;
    }
    __syncthreads();
    {
#line 12 "histogram.okl"
      int t = threadIdx.x;
      const int i = g * 256 + t;
      if (i < n) {
        int k = (int) floorf((x[i] - lo) / width);
        k = (k < 0) ? (0) : ((k >= 16) ? (16 - 1) : (k));
        atomicAdd(&s_bins[k], 1);
      }
    }
    __syncthreads();
    {
#line 20 "histogram.okl"
      int t = threadIdx.x;
      if (t < 16) {
        atomicAdd(&bins[t], s_bins[t]);
      }
    }
  }
}
