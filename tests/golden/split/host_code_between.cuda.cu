
#line 3 "host_code_between.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_pipeline_0(const int n, const float alpha, const float *x, float *y, const float scale) {
  {
#line 6 "host_code_between.okl"
    int b = blockIdx.x;
    {
#line 7 "host_code_between.okl"
      int t = threadIdx.x;
      const int i = b * 64 + t;
      if (i < n) y[i] = scale * x[i];
    }
  }
}

#line 3 "host_code_between.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_pipeline_1(const int n, const float alpha, const float *x, float *y, const long offset) {
  {
#line 14 "host_code_between.okl"
    int b = blockIdx.x;
    {
#line 15 "host_code_between.okl"
      int t = threadIdx.x;
      const long i = offset + b * 64 + t;
      if (i < n) y[i] += alpha;
    }
  }
}
