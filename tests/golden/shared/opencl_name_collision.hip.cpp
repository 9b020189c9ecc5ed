#include <hip/hip_runtime.h>

#line 4 "opencl_name_collision.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_twoScratch_0(const int nb, const int *x, float *y) {
  {
#line 5 "opencl_name_collision.okl"
    int b = blockIdx.x;
    {
      __shared__ int s[32];
      {
#line 8 "opencl_name_collision.okl"
        int t = threadIdx.x;
        s[t] = x[b * 32 + t];
      }
      __syncthreads();
      {
#line 11 "opencl_name_collision.okl"
        int t = threadIdx.x;
        y[b * 32 + t] = (float) s[31 - t];
      }
      __syncthreads();
    }
    {
#line 16 "opencl_name_collision.okl"
      __shared__ float s[32];
      {
#line 17 "opencl_name_collision.okl"
        int t = threadIdx.x;
        s[t] = y[b * 32 + t] * 2.0f;
      }
      __syncthreads();
      {
#line 20 "opencl_name_collision.okl"
        int t = threadIdx.x;
        y[b * 32 + t] = s[(t + 1) % 32];
      }
    }
  }
}
