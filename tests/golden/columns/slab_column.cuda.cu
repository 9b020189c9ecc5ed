
#line 8 "slab_column.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_slab_0(const int E, const double * __restrict__ D, const double * __restrict__ q, double * __restrict__ out) {
  {
    int e = blockIdx.x;
    __shared__ double s_D[4][4];
    __shared__ double s_g[4][4];
    double r_q[4];
    double r_col[4];
    double r_t;
    {
#line 16 "slab_column.okl"
      int j = threadIdx.y;
      {
#line 17 "slab_column.okl"
        int i = threadIdx.x;
        s_D[j][i] = D[j * 4 + i];
        for (int k = 0; k < 4; ++k) {
          r_q[k] = q[((e * 4 + k) * 4 + j) * 4 + i];
          r_col[k] = 0;
        }
      }
    }
    __syncthreads();
#line 25 "slab_column.okl"
    for (int k = 0; k < 4; ++k) {
      {
#line 26 "slab_column.okl"
        int j = threadIdx.y;
        {
#line 27 "slab_column.okl"
          int i = threadIdx.x;
          r_t = 0;
          for (int m = 0; m < 4; ++m) {
            r_t += s_D[k][m] * r_q[m];
          }
          s_g[j][i] = r_t * r_q[k];
        }
      }
      __syncthreads();
      {
#line 35 "slab_column.okl"
        int j = threadIdx.y;
        {
#line 36 "slab_column.okl"
          int i = threadIdx.x;
          double a = s_g[j][i];
          for (int m = 0; m < 4; ++m) {
            a += s_D[m][i] * s_g[j][m];
            r_col[m] += s_D[k][m] * r_t;
          }
          r_col[k] += a;
        }
      }
      __syncthreads();
    }
    {
#line 46 "slab_column.okl"
      int j = threadIdx.y;
      {
#line 47 "slab_column.okl"
        int i = threadIdx.x;
        for (int k = 0; k < 4; ++k) {
          out[((e * 4 + k) * 4 + j) * 4 + i] = r_col[k];
        }
      }
    }
  }
}
