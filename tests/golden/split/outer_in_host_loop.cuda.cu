
#line 3 "outer_in_host_loop.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_smooth_0(const int n, const int iterations, float *u, float *tmp, const float w) {
  {
#line 6 "outer_in_host_loop.okl"
    int b = blockIdx.x;
    {
#line 7 "outer_in_host_loop.okl"
      int t = threadIdx.x;
      const int i = b * 32 + t;
      tmp[i] = u[i] + w * (u[(i + 1) % (32 * n)] - u[i]);
    }
  }
}

#line 3 "outer_in_host_loop.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_smooth_1(const int n, const int iterations, float *u, float *tmp, const int it) {
  {
#line 12 "outer_in_host_loop.okl"
    int b = blockIdx.x;
    {
#line 13 "outer_in_host_loop.okl"
      int t = threadIdx.x;
      u[b * 32 + t] = tmp[b * 32 + t] + it;
    }
  }
}
