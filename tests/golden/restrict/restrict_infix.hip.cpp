#include <hip/hip_runtime.h>

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
extern "C" __global__ __launch_bounds__(16) void _okl_scaleShift_0(const int n, const float * __restrict__ x, int * __restrict__ c, float * __restrict__ y) {
  {
    int b = blockIdx.x;
    {
#line 10 "restrict_infix.okl"
      int i = threadIdx.x;
      Pair p;
      p.scale = 2.0f;
      p.shift = c[b * 16 + i];
      y[b * 16 + i] = p.scale * x[b * 16 + i] + ((float) p.shift);
    }
  }
}
