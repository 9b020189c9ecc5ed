
#line 2 "explicit_indices.okl"
extern "C" __global__ __launch_bounds__(256) void _okl_scale2d_0(const int rows, const int cols, float *m) {
  {
#line 3 "explicit_indices.okl"
    int _okl_tiled_r = 8 * blockIdx.y;
    {
#line 4 "explicit_indices.okl"
      int _okl_tiled_c = 32 * blockIdx.x;
      {
#line 3 "explicit_indices.okl"
        int r = _okl_tiled_r + threadIdx.y;
#line 3 "explicit_indices.okl"
        if (r < rows) {
          {
#line 4 "explicit_indices.okl"
            int c = _okl_tiled_c + threadIdx.x;
#line 4 "explicit_indices.okl"
            if (c < cols) {
              m[r * cols + c] *= 0.5f;
            }
          }
        }
      }
    }
  }
}
