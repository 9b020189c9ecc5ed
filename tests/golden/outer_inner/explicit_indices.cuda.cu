
#line 2 "explicit_indices.okl"
extern "C" __global__ __launch_bounds__(8) void _okl_explicitAxes_0(const int nx, const int ny, float *grid) {
  {
#line 3 "explicit_indices.okl"
    int bx = blockIdx.x;
    {
#line 4 "explicit_indices.okl"
      int by = blockIdx.y;
      {
#line 5 "explicit_indices.okl"
        int tx = threadIdx.x;
        {
#line 6 "explicit_indices.okl"
          int ty = threadIdx.y;
          grid[((by * 2 + ty) * nx + bx) * 4 + tx] = bx + 10.0f * by;
        }
      }
    }
  }
}
