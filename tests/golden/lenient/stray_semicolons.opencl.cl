
#line 2 "stray_semicolons.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_divergence_0(const int n, __global const float *u, __global const float *v, __global const float *w, __global float *div, ulong _okl_off_u, ulong _okl_off_v, ulong _okl_off_w, ulong _okl_off_div) {
  u += _okl_off_u;
  v += _okl_off_v;
  w += _okl_off_w;
  div += _okl_off_div;
  {
#line 4 "stray_semicolons.okl"
    int b = get_group_id(0);
    {
#line 5 "stray_semicolons.okl"
      int t = get_local_id(0);
      const int id = b * 16 + t;
      const float jw = 0.5f;
      div[id] = jw * (u[id] + 1.0f + v[id] * 2.0f + w[id]);
    }
  }
}
