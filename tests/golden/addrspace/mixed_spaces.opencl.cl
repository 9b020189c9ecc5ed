#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 6 "mixed_spaces.okl"
double sum3_l(__local const double *v, const int i);

#line 6 "mixed_spaces.okl"
double sum3_p(__private const double *v, const int i);

#line 6 "mixed_spaces.okl"
double sum3_g(__global const double *v, const int i);

double sum3_l(__local const double *v, const int i) {
  return v[i] + v[i + 1] + v[i + 2];
}

#line 8 "mixed_spaces.okl"
double sum3_p(__private const double *v, const int i) {
  return v[i] + v[i + 1] + v[i + 2];
}

#line 8 "mixed_spaces.okl"
double sum3_g(__global const double *v, const int i) {
  return v[i] + v[i + 1] + v[i + 2];
}

void axpy3_pp(__private double *y, __private const double *x, const double a) {
  for (int k = 0; k < 3; ++k) y[k] += a * x[k];
}

#line 12 "mixed_spaces.okl"
void axpy3_pl(__private double *y, __local const double *x, const double a) {
  for (int k = 0; k < 3; ++k) y[k] += a * x[k];
}

__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_mix_0(const int n, __global const double *x, __global double *out, ulong _okl_off_x, ulong _okl_off_out) {
#line 18 "mixed_spaces.okl"
  __local double s_x[16 + 2];
  x += _okl_off_x;
  out += _okl_off_out;
  {
#line 17 "mixed_spaces.okl"
    int b = 16 * get_group_id(0);
#line 19 "mixed_spaces.okl"
    double e[3];
    {
#line 20 "mixed_spaces.okl"
      int t = get_local_id(0);
      const int i = b + t;
      s_x[t] = (i < n) ? (x[i]) : (0.0);
      if (t < 2) s_x[16 + t] = (i + 16 < n) ? (x[i + 16]) : (0.0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 25 "mixed_spaces.okl"
      int t = get_local_id(0);
      const int i = b + t;
      double r[3];
      for (int k = 0; k < 3; ++k) {
        r[k] = k;
        e[k] = 2.0 * k;
      }
      axpy3_pp(r, e, 1.0);
      axpy3_pl(&r[0], s_x + t, 0.5);
      if (i + 2 < n) out[i] = sum3_l(s_x, t) + sum3_p(r, 0) + sum3_p(e, 0) + sum3_g(x, i);
    }
  }
}
