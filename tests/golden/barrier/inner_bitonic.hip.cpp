#include <hip/hip_runtime.h>

#line 3 "inner_bitonic.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_bitonic_0(const int nb, float *keys) {
  {
#line 4 "inner_bitonic.okl"
    int b = blockIdx.x;
    __shared__ float s[64];
    {
#line 6 "inner_bitonic.okl"
      int t = threadIdx.x;
      s[t] = keys[b * 64 + t];
      for (int k = 2; k <= 64; k *= 2) {
        for (int j = k / 2; j > 0; j /= 2) {
          __syncthreads();
          const int partner = t ^ j;
          if (partner > t) {
            const bool up = (t & k) == 0;
            const float a = s[t];
#line 14 "inner_bitonic.okl"
            const float c = s[partner];
            if (a > c == up) {
              s[t] = c;
              s[partner] = a;
            }
          }
        }
      }
      __syncthreads();
      keys[b * 64 + t] = s[t];
    }
  }
}
