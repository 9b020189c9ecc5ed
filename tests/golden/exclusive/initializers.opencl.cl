
#line 2 "initializers.okl"
__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void _okl_initialised_0(const int nb, __global const float *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 3 "initializers.okl"
    int b = get_group_id(0);
    float acc = 0.0f;
#line 4 "initializers.okl"
    float scale = 2.0f;
    int count[2] = {0, 1};
    {
#line 6 "initializers.okl"
      int t = get_local_id(0);
      acc += scale * x[b * 8 + t];
      count[1] += t;
    }
    {
#line 10 "initializers.okl"
      int t = get_local_id(0);
      y[b * 8 + t] = acc + count[0] + count[1];
    }
  }
}
