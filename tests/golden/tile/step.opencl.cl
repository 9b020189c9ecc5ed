
#line 2 "step.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_everyOther_0(const int n, __global float *x, ulong _okl_off_x) {
  x += _okl_off_x;
  {
#line 3 "step.okl"
    int _okl_tiled_i = 64 * 2 * get_group_id(0);
    {
#line 3 "step.okl"
      int i = _okl_tiled_i + 2 * get_local_id(0);
#line 3 "step.okl"
      if (i < n) {
        x[i] = 0.0f;
      }
    }
  }
}
