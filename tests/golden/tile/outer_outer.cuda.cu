
#line 2 "outer_outer.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_gridTile_0(const int n, float *x) {
  {
#line 3 "outer_outer.okl"
    int _okl_tiled_i = 16 * blockIdx.y;
    {
#line 3 "outer_outer.okl"
      int i = _okl_tiled_i + blockIdx.x;
#line 3 "outer_outer.okl"
      if (i < n) {
        {
#line 4 "outer_outer.okl"
          int t = threadIdx.x;
          x[i * 32 + t] = 1.0f;
        }
      }
    }
  }
}
