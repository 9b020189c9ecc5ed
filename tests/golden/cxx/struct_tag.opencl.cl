
#line 2 "struct_tag.okl"
struct Point
{
#line 2 "struct_tag.okl"
  float x;
#line 2 "struct_tag.okl"
  float y;
};

#line 2 "struct_tag.okl"
typedef struct Point Point;

static float norm1(__private const Point *p) {
#line 4 "struct_tag.okl"
  return ((p->x < 0) ? (-p->x) : (p->x)) + ((p->y < 0) ? (-p->y) : (p->y));
}

#line 6 "struct_tag.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_pointNorms_0(const int n, __global const float *xy, __global float *out, ulong _okl_off_xy, ulong _okl_off_out) {
  xy += _okl_off_xy;
  out += _okl_off_out;
  {
#line 7 "struct_tag.okl"
    int b = get_group_id(0);
    {
#line 8 "struct_tag.okl"
      int t = get_local_id(0);
      const int i = b * 64 + t;
      if (i < n) {
        Point p;
        p.x = xy[2 * i];
        p.y = xy[2 * i + 1];
        out[i] = norm1(&p);
      }
    }
  }
}
