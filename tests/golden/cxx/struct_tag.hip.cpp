#include <hip/hip_runtime.h>

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

__device__ static float norm1(const Point *p) {
#line 4 "struct_tag.okl"
  return ((p->x < 0) ? (-p->x) : (p->x)) + ((p->y < 0) ? (-p->y) : (p->y));
}

#line 6 "struct_tag.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_pointNorms_0(const int n, const float *xy, float *out) {
  {
#line 7 "struct_tag.okl"
    int b = blockIdx.x;
    {
#line 8 "struct_tag.okl"
      int t = threadIdx.x;
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
