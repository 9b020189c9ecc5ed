
#line 5 "declarations.okl"
__device__ double2 rotate(const double2 v, const double c, const double s) {
  return make_double2(c * v.x - s * v.y, s * v.x + c * v.y);
}

__device__ float dot4(const float4 a, const float4 *b) {
  return a.x * b->x + a.y * b->y + a.z * b->z + a.w * b->w;
}

extern "C" __global__ __launch_bounds__(16) void _okl_declarations_0(const int n, const float4 *f, double2 *d, int4 *counts, uchar4 *rgba, const char2 *steps, short2 *pairs, const uint2 *keys, ulong2 *wide, longlong2 *ll) {
  {
#line 16 "declarations.okl"
    int b = blockIdx.x;
    __shared__ float4 tile[16];
    double2 mine;
    {
#line 19 "declarations.okl"
      int t = threadIdx.x;
      const int i = b * 16 + t;
      tile[t] = (i < n) ? (f[i]) : (make_float4(0.0f, 0.0f, 0.0f, 0.0f));
      mine = (i < n) ? (d[i]) : (make_double2(0.0, 0.0));
    }
    __syncthreads();
    {
#line 24 "declarations.okl"
      int t = threadIdx.x;
      const int i = b * 16 + t;
      if (i < n) {
        const float4 next = tile[(t + 1) % 16];
        d[i] = rotate(mine, (double) dot4(next, &f[i]), 0.5);
        int4 c = counts[i];
        c.w = c.x + c.y + c.z;
        counts[i] = c;
        rgba[i] = make_uchar4(rgba[i].w, rgba[i].z, rgba[i].y, (unsigned char) steps[i].x);
        pairs[i] = make_short2(pairs[i].y, (short) steps[i].y);
        wide[i] = make_ulong2(keys[i].x, ((unsigned long) keys[i].y) << 32);
        ll[i].x = -ll[i].y;
        double3 p = make_double3(mine.x, mine.y, 1.0);
        p.z += p.x * p.y;
        ushort3 u = make_ushort3(1, 2, 3);
        ll[i].y = (long) (p.z + u.x + u.y + u.z);
      }
    }
  }
}
