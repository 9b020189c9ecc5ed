#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 7 "shared_param.okl"
typedef struct
{
#line 7 "shared_param.okl"
  double u;
#line 7 "shared_param.okl"
  double v;
} flux_t;

#line 9 "shared_param.okl"
__constant const double weights[8] = {1, 2, 3, 4, 4, 3, 2, 1};

void flux(const double q, __private flux_t *f) {
  f->u = q;
  f->v = 2.0 * q;
}

double row_sum_l(__local const double *row) {
  double s = 0.0;
  for (int k = 0; k < 8; ++k) s += row[k];
  return s;
}

#line 16 "shared_param.okl"
double row_sum_g(__global const double *row) {
  double s = 0.0;
  for (int k = 0; k < 8; ++k) s += row[k];
  return s;
}

double weighted(__constant const double *w, __local double s_q[2][8], const int j) {
  __local const double *row = s_q[j];
  double s = 0.0;
  for (int k = 0; k < 8; ++k) s += w[k] * row[k];
  return s + row_sum_l(s_q[j]);
}

void load(const int i, __global const double *q, __local double s_q[2][8]) {
  flux_t f;
  flux(q[i], &f);
  s_q[0][i] = f.u;
  s_q[1][i] = f.v;
}

__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void _okl_surface_0(const int ne, __global const double *q, __global double *out, ulong _okl_off_q, ulong _okl_off_out) {
#line 38 "shared_param.okl"
  __local double s_q[2][8];
  q += _okl_off_q;
  out += _okl_off_out;
  {
#line 37 "shared_param.okl"
    int e = get_group_id(0);
    {
      int i = get_local_id(0);
      load(i, q + e * 8, s_q);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 42 "shared_param.okl"
      int i = get_local_id(0);
      out[e * 8 + i] = weighted(weights, s_q, i % 2) + row_sum_g(q + e * 8);
    }
  }
}
