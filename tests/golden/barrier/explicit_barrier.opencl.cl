
#line 3 "explicit_barrier.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_neighbours_0(const int nb, __global const float *x, __global float *y, __global float *z, ulong _okl_off_x, ulong _okl_off_y, ulong _okl_off_z) {
  x += _okl_off_x;
  y += _okl_off_y;
  z += _okl_off_z;
  {
#line 4 "explicit_barrier.okl"
    int b = get_group_id(0);
    {
#line 5 "explicit_barrier.okl"
      int t = get_local_id(0);
      y[b * 32 + t] = 2.0f * x[b * 32 + t];
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    {
#line 9 "explicit_barrier.okl"
      int t = get_local_id(0);
      z[b * 32 + t] = y[b * 32 + (t + 1) % 32];
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    {
#line 13 "explicit_barrier.okl"
      int t = get_local_id(0);
      y[b * 32 + t] = z[b * 32 + 31 - t];
    }
  }
}
