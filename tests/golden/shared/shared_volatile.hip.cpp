#include <hip/hip_runtime.h>

#line 2 "shared_volatile.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_lastWarp_0(const int nb, const int *x, int *out) {
  {
#line 3 "shared_volatile.okl"
    int b = blockIdx.x;
    __shared__ volatile int s[32];
    {
#line 5 "shared_volatile.okl"
      int t = threadIdx.x;
      s[t] = x[b * 32 + t];
    }
    __syncthreads();
    {
#line 8 "shared_volatile.okl"
      int t = threadIdx.x;
      if (t == 0) {
        int total = 0;
        for (int k = 0; k < 32; ++k) total += s[k];
        out[b] = total;
      }
    }
  }
}
