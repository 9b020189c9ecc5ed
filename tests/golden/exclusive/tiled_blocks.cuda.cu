
#line 3 "tiled_blocks.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_tiledExclusive_0(const int rows, const float *x, float *y) {
  {
#line 4 "tiled_blocks.okl"
    int _okl_tiled_g = 2 * blockIdx.x;
#line 4 "tiled_blocks.okl"
    for (int g = _okl_tiled_g; g < _okl_tiled_g + 2; ++g) {
#line 4 "tiled_blocks.okl"
      if (g < rows) {
        float r;
        {
#line 6 "tiled_blocks.okl"
          int _okl_tiled_i = 16 * threadIdx.y;
          {
#line 6 "tiled_blocks.okl"
            int i = _okl_tiled_i + threadIdx.x;
#line 6 "tiled_blocks.okl"
            if (i < 64) {
              r = x[g * 64 + i];
            }
          }
        }
        {
#line 9 "tiled_blocks.okl"
          int _okl_tiled_i = 16 * threadIdx.y;
          {
#line 9 "tiled_blocks.okl"
            int i = _okl_tiled_i + threadIdx.x;
#line 9 "tiled_blocks.okl"
            if (i < 64) {
              y[g * 64 + i] = 2.0f * r;
            }
          }
        }
      }
    }
  }
}
