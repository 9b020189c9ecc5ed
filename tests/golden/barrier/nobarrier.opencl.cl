
#line 3 "nobarrier.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_readTwice_0(const int nb, __global const float *x, __global float *y, __global float *z, ulong _okl_off_x, ulong _okl_off_y, ulong _okl_off_z) {
#line 5 "nobarrier.okl"
  __local float s[64];
  x += _okl_off_x;
  y += _okl_off_y;
  z += _okl_off_z;
  {
#line 4 "nobarrier.okl"
    int b = get_group_id(0);
    {
      int t = get_local_id(0);
      s[t] = x[b * 64 + t];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 9 "nobarrier.okl"
      int t = get_local_id(0);
      y[b * 64 + t] = s[63 - t];
    }
    {
#line 12 "nobarrier.okl"
      int t = get_local_id(0);
      z[b * 64 + t] = s[t] + s[(t + 1) % 64];
    }
  }
}
