
#line 6 "mixed_spaces.okl"
__device__ double sum3(const double *v, const int i);

__device__ double sum3(const double *v, const int i) {
  return v[i] + v[i + 1] + v[i + 2];
}

__device__ void axpy3(double *y, const double *x, const double a) {
  for (int k = 0; k < 3; ++k) y[k] += a * x[k];
}

extern "C" __global__ __launch_bounds__(16) void _okl_mix_0(const int n, const double *x, double *out) {
  {
#line 17 "mixed_spaces.okl"
    int b = 16 * blockIdx.x;
    __shared__ double s_x[16 + 2];
    double e[3];
    {
#line 20 "mixed_spaces.okl"
      int t = threadIdx.x;
      const int i = b + t;
      s_x[t] = (i < n) ? (x[i]) : (0.0);
      if (t < 2) s_x[16 + t] = (i + 16 < n) ? (x[i + 16]) : (0.0);
    }
    __syncthreads();
    {
#line 25 "mixed_spaces.okl"
      int t = threadIdx.x;
      const int i = b + t;
      double r[3];
      for (int k = 0; k < 3; ++k) {
        r[k] = k;
        e[k] = 2.0 * k;
      }
      axpy3(r, e, 1.0);
      axpy3(&r[0], s_x + t, 0.5);
      if (i + 2 < n) out[i] = sum3(s_x, t) + sum3(r, 0) + sum3(e, 0) + sum3(x, i);
    }
  }
}
