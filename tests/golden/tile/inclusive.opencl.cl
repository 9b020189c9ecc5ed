
#line 2 "inclusive.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_upTo_0(const int last, __global float *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 3 "inclusive.okl"
    int _okl_tiled_i = 1 + 16 * get_group_id(0);
    {
#line 3 "inclusive.okl"
      int i = _okl_tiled_i + get_local_id(0);
#line 3 "inclusive.okl"
      if (i <= last) {
        x[i] = 1.0f / i;
      }
    }
  }
}
