
#line 2 "same_runtime_extent.okl"
__kernel void _okl_sameExtent_0(const int nb, const int m, __global const float *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
#line 4 "same_runtime_extent.okl"
  __local float s[256];
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 3 "same_runtime_extent.okl"
    int b = get_group_id(0);
    {
      int t = get_local_id(0);
      s[t] = x[b * m + t];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 8 "same_runtime_extent.okl"
      int t = get_local_id(0);
      y[b * m + t] = s[m - 1 - t];
    }
  }
}
