
#line 4 "global_param.okl"
__device__ static float weighted(const int i, const float *w, const float *x, const float scale) {
#line 6 "global_param.okl"
  return scale * w[i] * x[i];
}

extern "C" __global__ __launch_bounds__(64) void _okl_applyWeights_0(const int n, const float *w, const float *x, float *y) {
  {
#line 10 "global_param.okl"
    int _okl_tiled_i = 64 * blockIdx.x;
    {
#line 10 "global_param.okl"
      int i = _okl_tiled_i + threadIdx.x;
#line 10 "global_param.okl"
      if (i < n) {
        y[i] = weighted(i, w, x, 2.0f);
      }
    }
  }
}
