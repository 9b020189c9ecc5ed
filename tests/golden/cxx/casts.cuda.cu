
#line 2 "casts.okl"
__device__ static float *row(float *a, const int i) {
#line 2 "casts.okl"
  return a + 4 * i;
}

#line 4 "casts.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_castValues_0(const int n, const double *x, int *truncated, float *rows) {
  {
#line 5 "casts.okl"
    int b = blockIdx.x;
    {
#line 6 "casts.okl"
      int t = threadIdx.x;
      const int i = b * 32 + t;
      if (i < n) {
        truncated[i] = ((int) x[i]) + 2 * ((int) (x[i] * 0.5));
        float *r = (float *) row(rows, i);
        r[0] = ((float *) r)[1] + ((float) x[i]);
      }
    }
  }
}
