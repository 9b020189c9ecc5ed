
#line 3 "stray_backslash.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_sumPairs_0(const int n, __global const float *a, __global const float *b, __global float *c, ulong _okl_off_a, ulong _okl_off_b, ulong _okl_off_c) {
  a += _okl_off_a;
  b += _okl_off_b;
  c += _okl_off_c;
  {
#line 4 "stray_backslash.okl"
    int _okl_tiled_i = 32 * get_group_id(0);
    {
#line 4 "stray_backslash.okl"
      int i = _okl_tiled_i + get_local_id(0);
#line 4 "stray_backslash.okl"
      if (i < n) {
        c[i] = a[i] + b[i];
      }
    }
  }
}
