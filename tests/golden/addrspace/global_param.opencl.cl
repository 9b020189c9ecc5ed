
#line 4 "global_param.okl"
static float weighted(const int i, __global const float *w, __global const float *x, const float scale) {
#line 6 "global_param.okl"
  return scale * w[i] * x[i];
}

__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_applyWeights_0(const int n, __global const float *w, __global const float *x, __global float *y, ulong _okl_off_w, ulong _okl_off_x, ulong _okl_off_y) {
  w += _okl_off_w;
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 10 "global_param.okl"
    int _okl_tiled_i = 64 * get_group_id(0);
    {
#line 10 "global_param.okl"
      int i = _okl_tiled_i + get_local_id(0);
#line 10 "global_param.okl"
      if (i < n) {
        y[i] = weighted(i, w, x, 2.0f);
      }
    }
  }
}
