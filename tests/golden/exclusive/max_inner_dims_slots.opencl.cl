
#line 3 "max_inner_dims_slots.okl"
__kernel void _okl_bounded_0(const int nb, const int bs, __global const float *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 4 "max_inner_dims_slots.okl"
    int b = get_group_id(0);
    float r;
    {
#line 6 "max_inner_dims_slots.okl"
      int t = get_local_id(0);
      r = x[b * bs + t];
    }
    {
#line 9 "max_inner_dims_slots.okl"
      int t = get_local_id(0);
      y[b * bs + t] = 3.0f * r;
    }
  }
}
