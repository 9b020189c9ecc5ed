
#line 4 "max_inner_dims_product.okl"
__kernel __attribute__((reqd_work_group_size(16, 16, 1))) void _okl_wideRows_0(const int n, __global const float *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 5 "max_inner_dims_product.okl"
    int b = get_group_id(0);
    float r;
    {
#line 7 "max_inner_dims_product.okl"
      int j = get_local_id(1);
      {
#line 8 "max_inner_dims_product.okl"
        int i = get_local_id(0);
#line 8 "max_inner_dims_product.okl"
        if (i < 8) {
          r = x[(b * 16 + j) * 16 + i];
        }
      }
      {
#line 11 "max_inner_dims_product.okl"
        int i = get_local_id(0);
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
