#include <hip/hip_runtime.h>

#line 4 "opencl_rename_scopes.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_renameScopes_0(const int nb, const float *tile_1, float *out) {
  {
#line 5 "opencl_rename_scopes.okl"
    int b = blockIdx.x;
    {
      __shared__ float tile[16];
      {
#line 8 "opencl_rename_scopes.okl"
        int t = threadIdx.x;
        tile[t] = tile_1[b * 16 + t];
      }
      __syncthreads();
      {
#line 11 "opencl_rename_scopes.okl"
        int t = threadIdx.x;
        out[b * 16 + t] = tile[15 - t];
      }
      __syncthreads();
    }
    {
#line 16 "opencl_rename_scopes.okl"
      __shared__ float tile[16];
      {
#line 17 "opencl_rename_scopes.okl"
        int t = threadIdx.x;
        tile[t] = 2.0f * out[b * 16 + t];
      }
      __syncthreads();
      {
#line 20 "opencl_rename_scopes.okl"
        int t = threadIdx.x;
        float acc = tile[t];
        {
          const float tile = 0.5f;
          acc *= tile;
        }
        out[b * 16 + t] = acc + tile[(t + 1) % 16];
      }
    }
  }
}
