
#line 4 "hoist_rename_uses.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_scopes_0(const int nb, __global float *x, ulong _okl_off_x) {
#line 11 "hoist_rename_uses.okl"
  __local float buf[16];
#line 20 "hoist_rename_uses.okl"
  __local float buf_1[16];
  x += _okl_off_x;
  {
#line 5 "hoist_rename_uses.okl"
    int b = get_group_id(0);
    {
#line 6 "hoist_rename_uses.okl"
      int t = get_local_id(0);
      float buf = x[b * 16 + t];
      x[b * 16 + t] = buf + 1.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
      {
#line 12 "hoist_rename_uses.okl"
        int t = get_local_id(0);
        buf[t] = x[b * 16 + t];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      {
#line 15 "hoist_rename_uses.okl"
        int t = get_local_id(0);
        x[b * 16 + t] = buf[15 - t];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    {
      {
#line 21 "hoist_rename_uses.okl"
        int t = get_local_id(0);
        buf_1[t] = 2.0f * x[b * 16 + t];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      {
#line 24 "hoist_rename_uses.okl"
        int t = get_local_id(0);
        x[b * 16 + t] = buf_1[t] + buf_1[(t + 1) % 16];
      }
    }
  }
}

__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void _okl_other_0(const int n, __global float *buf, ulong _okl_off_buf) {
#line 33 "hoist_rename_uses.okl"
  __local float tmp[8];
  buf += _okl_off_buf;
  {
#line 32 "hoist_rename_uses.okl"
    int b = get_group_id(0);
    {
      int t = get_local_id(0);
      tmp[t] = buf[b * 8 + t];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 37 "hoist_rename_uses.okl"
      int t = get_local_id(0);
      buf[b * 8 + t] = tmp[7 - t];
    }
  }
}
