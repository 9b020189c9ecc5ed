
#line 5 "reduction_tree.okl"
__kernel __attribute__((reqd_work_group_size(256, 1, 1))) void _okl_reduceSum_0(const int N, __global const float *x, __global float *blockSums, ulong _okl_off_x, ulong _okl_off_blockSums) {
#line 7 "reduction_tree.okl"
  __local float s_sum[256];
  x += _okl_off_x;
  blockSums += _okl_off_blockSums;
  {
#line 6 "reduction_tree.okl"
    int b = get_group_id(0);
    {
      int t = get_local_id(0);
      const int i = b * 256 + t;
      s_sum[t] = (i < N) ? (x[i]) : (0.0f);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 12 "reduction_tree.okl"
      int t = get_local_id(0);
      if (t < 128) s_sum[t] += s_sum[t + 128];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 15 "reduction_tree.okl"
      int t = get_local_id(0);
      if (t < 64) s_sum[t] += s_sum[t + 64];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 17 "reduction_tree.okl"
      int t = get_local_id(0);
      if (t < 32) s_sum[t] += s_sum[t + 32];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 20 "reduction_tree.okl"
      int t = get_local_id(0);
      if (t < 16) s_sum[t] += s_sum[t + 16];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 23 "reduction_tree.okl"
      int t = get_local_id(0);
      if (t < 8) s_sum[t] += s_sum[t + 8];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 26 "reduction_tree.okl"
      int t = get_local_id(0);
      if (t < 4) s_sum[t] += s_sum[t + 4];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 29 "reduction_tree.okl"
      int t = get_local_id(0);
      if (t < 2) s_sum[t] += s_sum[t + 2];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 32 "reduction_tree.okl"
      int t = get_local_id(0);
      if (t == 0) blockSums[b] = s_sum[0] + s_sum[1];
    }
  }
}
