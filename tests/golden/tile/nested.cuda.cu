
#line 3 "nested.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_nestedTiles_0(const int rows, const int cols, const float *a, float *b) {
  {
#line 4 "nested.okl"
    int _okl_tiled_r = 4 * blockIdx.y;
    {
#line 5 "nested.okl"
      int _okl_tiled_c = 16 * blockIdx.x;
      {
#line 4 "nested.okl"
        int r = _okl_tiled_r + threadIdx.y;
#line 4 "nested.okl"
        if (r < rows) {
          {
#line 5 "nested.okl"
            int c = _okl_tiled_c + threadIdx.x;
#line 5 "nested.okl"
            if (c < cols) {
              b[c * rows + r] = a[r * cols + c];
            }
          }
        }
      }
    }
  }
}
