
#line 2 "inner_only.okl"
__kernel void _okl_chunks_0(const int nb, const int n, __global const float *x, __global float *partial, ulong _okl_off_x, ulong _okl_off_partial) {
  x += _okl_off_x;
  partial += _okl_off_partial;
  {
#line 3 "inner_only.okl"
    int b = get_group_id(0);
    {
#line 4 "inner_only.okl"
      int _okl_tiled_i = 4 * get_local_id(0);
#line 4 "inner_only.okl"
      for (int i = _okl_tiled_i; i < _okl_tiled_i + 4; ++i) {
#line 4 "inner_only.okl"
        if (i < n) {
          partial[b * n + i] = x[b * n + i] * 0.25f;
        }
      }
    }
  }
}
