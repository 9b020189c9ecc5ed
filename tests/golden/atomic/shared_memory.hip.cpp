#include <hip/hip_runtime.h>

#line 2 "shared_memory.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_sharedOps_0(const int nb, const int *keys, const double *w, int *counts, double *sums) {
  {
    int b = blockIdx.x;
    __shared__ int s_count[8];
    __shared__ unsigned int s_bits[1];
    __shared__ float s_max[1];
    __shared__ double s_sum[8];
    {
#line 9 "shared_memory.okl"
      int t = threadIdx.x;
      if (t < 8) {
        s_count[t] = 0;
        s_sum[t] = 0.0;
      }
      if (t == 0) {
        s_bits[0] = 0u;
        s_max[0] = 0.0f;
      }
    }
    __syncthreads();
    {
#line 19 "shared_memory.okl"
      int t = threadIdx.x;
      const int k = keys[b * 64 + t] & 7;
      atomicAdd(&s_count[k], 1);
      atomicSub(&s_count[(k + 1) & 7], 1);
      atomicOr(&s_bits[0], 1u << k);
      atomicXor(&s_bits[0], 1u);
      atomicExch(&s_max[0], (float) (k >= 0));
      atomicAdd(&s_sum[k], w[b * 64 + t]);
      atomicAdd(&s_sum[7 - k], -1.0);
    }
    __syncthreads();
    {
#line 29 "shared_memory.okl"
      int t = threadIdx.x;
      if (t < 8) {
        atomicAdd(&counts[t], s_count[t] + ((int) s_bits[0]) + ((int) s_max[0]));
        atomicAdd(&sums[t], s_sum[t]);
      }
    }
  }
}
