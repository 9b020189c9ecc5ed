#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 3 "blend.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_blend_0(const int n, __global const double4 *p, __global const float2 *w, const double2 scale, __global double4 *out, __global float2 *sums, ulong _okl_off_p, ulong _okl_off_w, ulong _okl_off_out, ulong _okl_off_sums) {
  p += _okl_off_p;
  w += _okl_off_w;
  out += _okl_off_out;
  sums += _okl_off_sums;
  {
#line 5 "blend.okl"
    int _okl_tiled_i = 32 * get_group_id(0);
    {
#line 5 "blend.okl"
      int i = _okl_tiled_i + get_local_id(0);
#line 5 "blend.okl"
      if (i < n) {
        const double4 a = p[i];
        const float2 b = w[i];
        double4 r = (double4)(a.x * b.x, a.y * b.y, a.z + scale.x, a.w * scale.y);
        r.w += a.x;
        out[i] = r;
        sums[i] = (float2)(b.x + b.y, (float) (a.x + a.y + a.z + a.w));
      }
    }
  }
}
