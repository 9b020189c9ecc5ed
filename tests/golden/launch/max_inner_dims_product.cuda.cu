
#line 4 "max_inner_dims_product.okl"
extern "C" __global__ __launch_bounds__(256) void _okl_wideRows_0(const int n, const float *x, float *y) {
  {
#line 5 "max_inner_dims_product.okl"
    int b = blockIdx.x;
    float r;
    {
#line 7 "max_inner_dims_product.okl"
      int j = threadIdx.y;
      {
#line 8 "max_inner_dims_product.okl"
        int i = threadIdx.x;
#line 8 "max_inner_dims_product.okl"
        if (i < 8) {
          r = x[(b * 16 + j) * 16 + i];
        }
      }
      {
#line 11 "max_inner_dims_product.okl"
        int i = threadIdx.x;
#line 11 "max_inner_dims_product.okl"
        if (i < 16) {
          if (i >= 8) {
            r = 0.5f * x[(b * 16 + j) * 16 + i];
          }
          y[(b * 16 + j) * 16 + i] = r + 1.0f;
        }
      }
    }
  }
}
