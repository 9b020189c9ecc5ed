#include <hip/hip_runtime.h>

#line 6 "pointer_locals.okl"
__device__ double dot(const double *a, const double *b) {
  const double *p = b;
  double s = 0.0;
  for (int k = 0; k < 3; ++k) s += a[k] * p[k];
  return s;
}

extern "C" __global__ __launch_bounds__(32) void _okl_combine_0(const int n, const double *coef, const double *hist, double *out) {
  {
#line 14 "pointer_locals.okl"
    int _okl_tiled_i = 32 * blockIdx.x;
    {
#line 14 "pointer_locals.okl"
      int i = _okl_tiled_i + threadIdx.x;
#line 14 "pointer_locals.okl"
      if (i < n) {
        const double *rows[3];
        for (int s = 0; s < 3; ++s) rows[s] = hist + s * n;
        double v[3];
        for (int s = 0; s < 3; ++s) v[s] = rows[s][i];
        out[i] = dot(coef, v) + dot(coef, coef);
      }
    }
  }
}
