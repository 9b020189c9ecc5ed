
#line 2 "initializers.okl"
extern "C" __global__ __launch_bounds__(8) void _okl_initialised_0(const int nb, const float *x, float *y) {
  {
#line 3 "initializers.okl"
    int b = blockIdx.x;
    float acc = 0.0f;
#line 4 "initializers.okl"
    float scale = 2.0f;
    int count[2] = {0, 1};
    {
#line 6 "initializers.okl"
      int t = threadIdx.x;
      acc += scale * x[b * 8 + t];
      count[1] += t;
    }
    {
#line 10 "initializers.okl"
      int t = threadIdx.x;
      y[b * 8 + t] = acc + count[0] + count[1];
    }
  }
}
