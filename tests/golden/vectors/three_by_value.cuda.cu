
#line 2 "three_by_value.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_fill_0(const int n, const double3 value, double3 *out) {
  {
#line 3 "three_by_value.okl"
    int _okl_tiled_i = 64 * blockIdx.x;
    {
#line 3 "three_by_value.okl"
      int i = _okl_tiled_i + threadIdx.x;
#line 3 "three_by_value.okl"
      if (i < n) {
        out[i] = make_double3(value.x, value.y, value.z);
      }
    }
  }
}
