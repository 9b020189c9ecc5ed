#include <hip/hip_runtime.h>
#if defined(__AMDGCN__)
#define __syncwarp(...) (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), \
                         __builtin_amdgcn_wave_barrier(), \
                         __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"))
#endif

#line 2 "barrier_warp.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_warpSum_0(const int nb, const int *x, int *out) {
  {
#line 3 "barrier_warp.okl"
    int b = blockIdx.x;
    __shared__ int s[32];
    {
#line 5 "barrier_warp.okl"
      int t = threadIdx.x;
      s[t] = x[b * 32 + t];
    }
    __syncwarp();
    {
#line 9 "barrier_warp.okl"
      int t = threadIdx.x;
      if (t < 16) s[t] += s[t + 16];
    }
    __syncwarp();
    {
#line 13 "barrier_warp.okl"
      int t = threadIdx.x;
      if (t == 0) out[b] = s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7] + s[8] + s[9] + s[10] + s[11] + s[12] + s[13] + s[14] + s[15];
    }
  }
}
