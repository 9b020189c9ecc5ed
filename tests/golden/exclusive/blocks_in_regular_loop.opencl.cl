
#line 2 "blocks_in_regular_loop.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_iterate_0(const int nb, const int steps, __global float *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 3 "blocks_in_regular_loop.okl"
    int b = get_group_id(0);
    float r;
    {
#line 5 "blocks_in_regular_loop.okl"
      int t = get_local_id(0);
      r = x[b * 16 + t];
    }
    for (int s = 0; s < steps; ++s) {
      {
        r = 0.5f * r + 1.0f;
      }
    }
    {
#line 13 "blocks_in_regular_loop.okl"
      int t = get_local_id(0);
      x[b * 16 + t] = r;
    }
  }
}
