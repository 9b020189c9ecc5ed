
#line 4 "restrict_infix.okl"
typedef struct Pair Pair;

#line 5 "restrict_infix.okl"
struct Pair
{
#line 5 "restrict_infix.okl"
  float scale;
#line 5 "restrict_infix.okl"
  int shift;
};

#line 7 "restrict_infix.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_scaleShift_0(const int n, __global const float * restrict x, __global int * restrict c, __global float * restrict y, ulong _okl_off_x, ulong _okl_off_c, ulong _okl_off_y) {
  x += _okl_off_x;
  c += _okl_off_c;
  y += _okl_off_y;
  {
#line 9 "restrict_infix.okl"
    int b = get_group_id(0);
    {
#line 10 "restrict_infix.okl"
      int i = get_local_id(0);
      Pair p;
      p.scale = 2.0f;
      p.shift = c[b * 16 + i];
      y[b * 16 + i] = p.scale * x[b * 16 + i] + ((float) p.shift);
    }
  }
}
