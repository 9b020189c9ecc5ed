
#line 3 "max_inner_dims_slots.okl"
extern "C" __global__ __launch_bounds__(128) void _okl_bounded_0(const int nb, const int bs, const float *x, float *y) {
  {
#line 4 "max_inner_dims_slots.okl"
    int b = blockIdx.x;
    float r;
    {
#line 6 "max_inner_dims_slots.okl"
      int t = threadIdx.x;
      r = x[b * bs + t];
    }
    {
#line 9 "max_inner_dims_slots.okl"
      int t = threadIdx.x;
      y[b * bs + t] = 3.0f * r;
    }
  }
}
