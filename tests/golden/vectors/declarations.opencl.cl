#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef long2 longlong2;

#line 5 "declarations.okl"
double2 rotate(const double2 v, const double c, const double s) {
  return (double2)(c * v.x - s * v.y, s * v.x + c * v.y);
}

float dot4(const float4 a, __global const float4 *b) {
  return a.x * b->x + a.y * b->y + a.z * b->z + a.w * b->w;
}

__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_declarations_0(const int n, __global const float4 *f, __global double2 *d, __global int4 *counts, __global uchar4 *rgba, __global const char2 *steps, __global short2 *pairs, __global const uint2 *keys, __global ulong2 *wide, __global longlong2 *ll, ulong _okl_off_f, ulong _okl_off_d, ulong _okl_off_counts, ulong _okl_off_rgba, ulong _okl_off_steps, ulong _okl_off_pairs, ulong _okl_off_keys, ulong _okl_off_wide, ulong _okl_off_ll) {
#line 17 "declarations.okl"
  __local float4 tile[16];
  f += _okl_off_f;
  d += _okl_off_d;
  counts += _okl_off_counts;
  rgba += _okl_off_rgba;
  steps += _okl_off_steps;
  pairs += _okl_off_pairs;
  keys += _okl_off_keys;
  wide += _okl_off_wide;
  ll += _okl_off_ll;
  {
#line 16 "declarations.okl"
    int b = get_group_id(0);
#line 18 "declarations.okl"
    double2 mine;
    {
#line 19 "declarations.okl"
      int t = get_local_id(0);
      const int i = b * 16 + t;
      tile[t] = (i < n) ? (f[i]) : ((float4)(0.0f, 0.0f, 0.0f, 0.0f));
      mine = (i < n) ? (d[i]) : ((double2)(0.0, 0.0));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 24 "declarations.okl"
      int t = get_local_id(0);
      const int i = b * 16 + t;
      if (i < n) {
        const float4 next = tile[(t + 1) % 16];
        d[i] = rotate(mine, (double) dot4(next, &f[i]), 0.5);
        int4 c = counts[i];
        c.w = c.x + c.y + c.z;
        counts[i] = c;
        rgba[i] = (uchar4)(rgba[i].w, rgba[i].z, rgba[i].y, (unsigned char) steps[i].x);
        pairs[i] = (short2)(pairs[i].y, (short) steps[i].y);
        wide[i] = (ulong2)(keys[i].x, ((unsigned long) keys[i].y) << 32);
        ll[i].x = -ll[i].y;
        double3 p = (double3)(mine.x, mine.y, 1.0);
        p.z += p.x * p.y;
        ushort3 u = (ushort3)(1, 2, 3);
        ll[i].y = (long) (p.z + u.x + u.y + u.z);
      }
    }
  }
}
