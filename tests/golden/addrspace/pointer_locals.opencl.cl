#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 6 "pointer_locals.okl"
double dot_gp(__global const double *a, __private const double *b) {
  __private const double *p = b;
  double s = 0.0;
  for (int k = 0; k < 3; ++k) s += a[k] * p[k];
  return s;
}

#line 6 "pointer_locals.okl"
double dot_gg(__global const double *a, __global const double *b) {
  __global const double *p = b;
  double s = 0.0;
  for (int k = 0; k < 3; ++k) s += a[k] * p[k];
  return s;
}

__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_combine_0(const int n, __global const double *coef, __global const double *hist, __global double *out, ulong _okl_off_coef, ulong _okl_off_hist, ulong _okl_off_out) {
  coef += _okl_off_coef;
  hist += _okl_off_hist;
  out += _okl_off_out;
  {
#line 14 "pointer_locals.okl"
    int _okl_tiled_i = 32 * get_group_id(0);
    {
#line 14 "pointer_locals.okl"
      int i = _okl_tiled_i + get_local_id(0);
#line 14 "pointer_locals.okl"
      if (i < n) {
        __global const double *rows[3];
        for (int s = 0; s < 3; ++s) rows[s] = hist + s * n;
        double v[3];
        for (int s = 0; s < 3; ++s) v[s] = rows[s][i];
        out[i] = dot_gp(coef, v) + dot_gg(coef, coef);
      }
    }
  }
}
