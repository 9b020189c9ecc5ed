
#line 3 "inner_bitonic.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_bitonic_0(const int nb, __global float *keys, ulong _okl_off_keys) {
#line 5 "inner_bitonic.okl"
  __local float s[64];
  keys += _okl_off_keys;
  {
#line 4 "inner_bitonic.okl"
    int b = get_group_id(0);
    {
      int t = get_local_id(0);
      s[t] = keys[b * 64 + t];
      for (int k = 2; k <= 64; k *= 2) {
        for (int j = k / 2; j > 0; j /= 2) {
          barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
          const int partner = t ^ j;
          if (partner > t) {
            const bool up = (t & k) == 0;
            const float a = s[t];
#line 14 "inner_bitonic.okl"
            const float c = s[partner];
            if (a > c == up) {
              s[t] = c;
              s[partner] = a;
            }
          }
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      keys[b * 64 + t] = s[t];
    }
  }
}
