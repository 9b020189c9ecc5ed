#include <hip/hip_runtime.h>

#line 7 "slab_prefetch.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_slab_0(const int E, const double * __restrict__ g, const double * __restrict__ q, double * __restrict__ out) {
  {
    int e = blockIdx.x;
    __shared__ double s_a[4][4];
    for (int k = 0; k < 4; ++k) {
      {
#line 12 "slab_prefetch.okl"
        int j = threadIdx.y;
        {
#line 13 "slab_prefetch.okl"
          int i = threadIdx.x;
          const int n = e * 2 * 4 * 4 * 4 + k * 4 * 4 + j * 4 + i;
          s_a[j][i] = g[n] * q[((e * 4 + k) * 4 + j) * 4 + i] + g[n + 4 * 4 * 4];
        }
      }
      __syncthreads();
      {
#line 18 "slab_prefetch.okl"
        int j = threadIdx.y;
        {
#line 19 "slab_prefetch.okl"
          int i = threadIdx.x;
          out[((e * 4 + k) * 4 + j) * 4 + i] = s_a[i][j] - 2 * s_a[j][i];
        }
      }
      __syncthreads();
    }
  }
}
