#include <hip/hip_runtime.h>

#line 4 "shared_3d.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_cubeSums_0(const int ne, const double *u, double *sums) {
  {
#line 5 "shared_3d.okl"
    int e = blockIdx.x;
    __shared__ double s_u[4][4][4];
    __shared__ double s_col[4][4];
    {
#line 8 "shared_3d.okl"
      int j = threadIdx.y;
      {
#line 9 "shared_3d.okl"
        int i = threadIdx.x;
        for (int k = 0; k < 4; ++k) {
          s_u[k][j][i] = u[e * 4 * 4 * 4 + (k * 4 + j) * 4 + i];
        }
      }
    }
    __syncthreads();
    {
#line 15 "shared_3d.okl"
      int j = threadIdx.y;
      {
#line 16 "shared_3d.okl"
        int i = threadIdx.x;
        double acc = 0.0;
        for (int k = 0; k < 4; ++k) acc += s_u[k][j][i];
        s_col[j][i] = acc;
      }
    }
    __syncthreads();
    {
#line 22 "shared_3d.okl"
      int j = threadIdx.y;
      {
#line 23 "shared_3d.okl"
        int i = threadIdx.x;
        sums[e * 4 * 4 + j * 4 + i] = s_col[j][i] + s_col[i][j];
      }
    }
  }
}
