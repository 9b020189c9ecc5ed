
#line 4 "sibling_runtime_extent.okl"
__kernel void _okl_mixed_0(const int nb, const int m, __global const float *x, __global float *y, __global float *z, ulong _okl_off_x, ulong _okl_off_y, ulong _okl_off_z) {
  x += _okl_off_x;
  y += _okl_off_y;
  z += _okl_off_z;
  {
#line 5 "sibling_runtime_extent.okl"
    int b = get_group_id(0);
    {
#line 6 "sibling_runtime_extent.okl"
      int t = get_local_id(0);
#line 6 "sibling_runtime_extent.okl"
      if (t < 32) {
        y[b * 32 + t] = x[b * 32 + t];
      }
    }
    {
#line 9 "sibling_runtime_extent.okl"
      int t = get_local_id(0);
#line 9 "sibling_runtime_extent.okl"
      if (t < m) {
        z[b * m + t] = 0.0f;
      }
    }
  }
}
