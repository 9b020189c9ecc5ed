
#line 3 "explicit_barrier.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_neighbours_0(const int nb, const float *x, float *y, float *z) {
  {
#line 4 "explicit_barrier.okl"
    int b = blockIdx.x;
    {
#line 5 "explicit_barrier.okl"
      int t = threadIdx.x;
      y[b * 32 + t] = 2.0f * x[b * 32 + t];
    }
    __syncthreads();
    {
#line 9 "explicit_barrier.okl"
      int t = threadIdx.x;
      z[b * 32 + t] = y[b * 32 + (t + 1) % 32];
    }
    __syncthreads();
    {
#line 13 "explicit_barrier.okl"
      int t = threadIdx.x;
      y[b * 32 + t] = z[b * 32 + 31 - t];
    }
  }
}
