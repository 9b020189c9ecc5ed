#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 2 "float_abs.okl"
static double spread(const double a, const double b) {
#line 2 "float_abs.okl"
  return fabs(a - b);
}

#line 4 "float_abs.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_weights_0(const int n, __global const double *y, __global const float *tol, __global double *w, __global int *k, ulong _okl_off_y, ulong _okl_off_tol, ulong _okl_off_w, ulong _okl_off_k) {
  y += _okl_off_y;
  tol += _okl_off_tol;
  w += _okl_off_w;
  k += _okl_off_k;
  {
#line 5 "float_abs.okl"
    int _okl_tiled_i = 64 * get_group_id(0);
    {
#line 5 "float_abs.okl"
      int i = _okl_tiled_i + get_local_id(0);
#line 5 "float_abs.okl"
      if (i < n) {
        const double denom = 1e-3 * fabs(y[i]) + fabs(tol[i % 4]) + spread(y[i], 0.5);
        w[i] = 1.0 / denom;
        k[i] = abs(i - 3);
      }
    }
  }
}
