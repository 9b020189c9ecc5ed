
#line 3 "inner_reduction.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_blockSum_0(const int nb, __global const float *x, __global float *out, ulong _okl_off_x, ulong _okl_off_out) {
#line 5 "inner_reduction.okl"
  __local float s[64];
  x += _okl_off_x;
  out += _okl_off_out;
  {
#line 4 "inner_reduction.okl"
    int b = get_group_id(0);
    {
      int t = get_local_id(0);
      s[t] = x[b * 64 + t];
      for (int w = 32; w > 0; w /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        if (t < w) s[t] += s[t + w];
      }
      if (t == 0) out[b] = s[0];
    }
  }
}
