
#line 4 "opencl_name_collision.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_twoScratch_0(const int nb, __global const int *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
#line 7 "opencl_name_collision.okl"
  __local int s[32];
#line 16 "opencl_name_collision.okl"
  __local float s_1[32];
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 5 "opencl_name_collision.okl"
    int b = get_group_id(0);
    {
      {
        int t = get_local_id(0);
        s[t] = x[b * 32 + t];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      {
#line 11 "opencl_name_collision.okl"
        int t = get_local_id(0);
        y[b * 32 + t] = (float) s[31 - t];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    {
      {
#line 17 "opencl_name_collision.okl"
        int t = get_local_id(0);
        s_1[t] = y[b * 32 + t] * 2.0f;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      {
#line 20 "opencl_name_collision.okl"
        int t = get_local_id(0);
        y[b * 32 + t] = s_1[(t + 1) % 32];
      }
    }
  }
}
