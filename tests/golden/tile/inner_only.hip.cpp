#include <hip/hip_runtime.h>

#line 2 "inner_only.okl"
extern "C" __global__ void _okl_chunks_0(const int nb, const int n, const float *x, float *partial) {
  {
#line 3 "inner_only.okl"
    int b = blockIdx.x;
    {
#line 4 "inner_only.okl"
      int _okl_tiled_i = 4 * threadIdx.x;
#line 4 "inner_only.okl"
      for (int i = _okl_tiled_i; i < _okl_tiled_i + 4; ++i) {
#line 4 "inner_only.okl"
        if (i < n) {
          partial[b * n + i] = x[b * n + i] * 0.25f;
        }
      }
    }
  }
}
