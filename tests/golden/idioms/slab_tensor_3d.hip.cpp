#include <hip/hip_runtime.h>

#line 8 "slab_tensor_3d.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_stiffness_0(const int Nelements, const double *D, const double *q, double *Aq) {
  {
#line 9 "slab_tensor_3d.okl"
    int e = blockIdx.x;
    __shared__ double s_D[4][4];
    __shared__ double s_q[4][4][4 + 1];
    double r_q[4];
#line 12 "slab_tensor_3d.okl"
    double r_Aq[4];
    {
      int j = threadIdx.y;
      {
#line 15 "slab_tensor_3d.okl"
        int i = threadIdx.x;
        s_D[j][i] = D[j * 4 + i];
        #pragma unroll 4
        for (int k = 0; k < 4; ++k) {
          r_q[k] = q[e * (4 * 4 * 4) + (k * 4 + j) * 4 + i];
          r_Aq[k] = 0.0;
        }
      }
    }
    __syncthreads();
    for (int k = 0; k < 4; ++k) {
      {
#line 26 "slab_tensor_3d.okl"
        int j = threadIdx.y;
        {
#line 27 "slab_tensor_3d.okl"
          int i = threadIdx.x;
          s_q[k][j][i] = r_q[k];
        }
      }
      __syncthreads();
      {
#line 32 "slab_tensor_3d.okl"
        int j = threadIdx.y;
        {
#line 33 "slab_tensor_3d.okl"
          int i = threadIdx.x;
          double qr = 0.0;
#line 34 "slab_tensor_3d.okl"
          double qs = 0.0;
          #pragma unroll 4
          for (int m = 0; m < 4; ++m) {
            qr += s_D[i][m] * s_q[k][j][m];
            qs += s_D[j][m] * s_q[k][m][i];
          }
          r_Aq[k] += qr + qs;
        }
      }
      __syncthreads();
    }
    {
#line 45 "slab_tensor_3d.okl"
      int j = threadIdx.y;
      {
#line 46 "slab_tensor_3d.okl"
        int i = threadIdx.x;
        #pragma unroll 4
        for (int k = 0; k < 4; ++k) {
          Aq[e * (4 * 4 * 4) + (k * 4 + j) * 4 + i] = r_Aq[k];
        }
      }
    }
  }
}
