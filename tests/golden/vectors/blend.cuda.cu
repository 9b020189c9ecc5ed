#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 13
#define double4 double4_16a
#define make_double4 okl_make_double4
static __device__ __forceinline__ double4_16a okl_make_double4(double x, double y, double z, double w) {
  double4_16a v; v.x = x; v.y = y; v.z = z; v.w = w; return v;
}
#endif

#line 3 "blend.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_blend_0(const int n, const double4 *p, const float2 *w, const double2 scale, double4 *out, float2 *sums) {
  {
    int _okl_tiled_i = 32 * blockIdx.x;
    {
#line 5 "blend.okl"
      int i = _okl_tiled_i + threadIdx.x;
#line 5 "blend.okl"
      if (i < n) {
        const double4 a = p[i];
        const float2 b = w[i];
        double4 r = make_double4(a.x * b.x, a.y * b.y, a.z + scale.x, a.w * scale.y);
        r.w += a.x;
        out[i] = r;
        sums[i] = make_float2(b.x + b.y, (float) (a.x + a.y + a.z + a.w));
      }
    }
  }
}
