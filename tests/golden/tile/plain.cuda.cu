
#line 2 "plain.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_blockedSum_0(const int nb, const int m, const float *x, float *sums) {
  {
#line 3 "plain.okl"
    int b = blockIdx.x;
    {
#line 4 "plain.okl"
      int t = threadIdx.x;
      float acc = 0.0f;
      for (int _okl_tiled_k = 0; _okl_tiled_k < m; _okl_tiled_k += 4) {
#line 6 "plain.okl"
        for (int k = _okl_tiled_k; k < _okl_tiled_k + 4; ++k) {
#line 6 "plain.okl"
          if (k < m) {
            acc += x[(b * 32 + t) * m + k];
          }
        }
      }
#line 9 "plain.okl"
      sums[b * 32 + t] = acc;
    }
  }
}
