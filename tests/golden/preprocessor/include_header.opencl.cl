
#line 6 "include/okl_helpers.h"
typedef float real_t;

real_t lerp(const real_t a, const real_t b, const real_t t) {
  return a + t * (b - a);
}

#line 6 "include_header.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_blend_0(const int n, const real_t t, __global const real_t *a, __global const real_t *b, __global real_t *c, ulong _okl_off_a, ulong _okl_off_b, ulong _okl_off_c) {
  a += _okl_off_a;
  b += _okl_off_b;
  c += _okl_off_c;
  {
#line 7 "include_header.okl"
    int g = get_group_id(0);
    {
#line 8 "include_header.okl"
      int l = get_local_id(0);
      const int i = g * 32 + l;
      if (i < n) c[i] = lerp(a[i], b[i], t);
    }
  }
}
