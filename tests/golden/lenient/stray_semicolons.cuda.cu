
#line 2 "stray_semicolons.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_divergence_0(const int n, const float *u, const float *v, const float *w, float *div) {
  {
    int b = blockIdx.x;
    {
#line 5 "stray_semicolons.okl"
      int t = threadIdx.x;
      const int id = b * 16 + t;
      const float jw = 0.5f;
      div[id] = jw * (u[id] + 1.0f + v[id] * 2.0f + w[id]);
    }
  }
}
