
#line 2 "plain.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_blockedSum_0(const int nb, const int m, __global const float *x, __global float *sums, ulong _okl_off_x, ulong _okl_off_sums) {
  x += _okl_off_x;
  sums += _okl_off_sums;
  {
#line 3 "plain.okl"
    int b = get_group_id(0);
    {
#line 4 "plain.okl"
      int t = get_local_id(0);
      float acc = 0.0f;
      for (int _okl_tiled_k = 0; _okl_tiled_k < m; _okl_tiled_k += 4) {
#line 6 "plain.okl"
        for (int k = _okl_tiled_k; k < _okl_tiled_k + 4; ++k) {
#line 6 "plain.okl"
          if (k < m) {
            acc += x[(b * 32 + t) * m + k];
          }
        }
      }
#line 9 "plain.okl"
      sums[b * 32 + t] = acc;
    }
  }
}
