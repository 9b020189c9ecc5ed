
#line 4 "shared_2d.okl"
extern "C" __global__ __launch_bounds__(256) void _okl_transposeShared_0(const int n, const float *in, float *out) {
  {
#line 5 "shared_2d.okl"
    int by = blockIdx.y;
    {
#line 6 "shared_2d.okl"
      int bx = blockIdx.x;
      __shared__ float tile[16][16 + 1];
      {
#line 8 "shared_2d.okl"
        int ty = threadIdx.y;
        {
#line 9 "shared_2d.okl"
          int tx = threadIdx.x;
          tile[ty][tx] = in[(by * 16 + ty) * n + bx * 16 + tx];
        }
      }
      __syncthreads();
      {
#line 13 "shared_2d.okl"
        int ty = threadIdx.y;
        {
#line 14 "shared_2d.okl"
          int tx = threadIdx.x;
          out[(bx * 16 + ty) * n + by * 16 + tx] = tile[tx][ty];
        }
      }
    }
  }
}
