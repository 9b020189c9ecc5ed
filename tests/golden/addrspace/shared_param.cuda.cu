
#line 7 "shared_param.okl"
typedef struct
{
#line 7 "shared_param.okl"
  double u;
#line 7 "shared_param.okl"
  double v;
} flux_t;

#line 9 "shared_param.okl"
__constant__ const double weights[8] = {1, 2, 3, 4, 4, 3, 2, 1};

__device__ void flux(const double q, flux_t *f) {
  f->u = q;
  f->v = 2.0 * q;
}

__device__ double row_sum(const double *row) {
  double s = 0.0;
  for (int k = 0; k < 8; ++k) s += row[k];
  return s;
}

__device__ double weighted(const double *w, double s_q[2][8], const int j) {
  const double *row = s_q[j];
  double s = 0.0;
  for (int k = 0; k < 8; ++k) s += w[k] * row[k];
  return s + row_sum(s_q[j]);
}

__device__ void load(const int i, const double *q, double s_q[2][8]) {
  flux_t f;
  flux(q[i], &f);
  s_q[0][i] = f.u;
  s_q[1][i] = f.v;
}

extern "C" __global__ __launch_bounds__(8) void _okl_surface_0(const int ne, const double *q, double *out) {
  {
#line 37 "shared_param.okl"
    int e = blockIdx.x;
    __shared__ double s_q[2][8];
    {
#line 39 "shared_param.okl"
      int i = threadIdx.x;
      load(i, q + e * 8, s_q);
    }
    __syncthreads();
    {
#line 42 "shared_param.okl"
      int i = threadIdx.x;
      out[e * 8 + i] = weighted(weights, s_q, i % 2) + row_sum(q + e * 8);
    }
  }
}
