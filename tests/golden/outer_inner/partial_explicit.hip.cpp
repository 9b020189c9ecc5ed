#include <hip/hip_runtime.h>

#line 2 "partial_explicit.okl"
extern "C" __global__ __launch_bounds__(15) void _okl_partial_0(const int n, const int m, int *ids) {
  {
#line 3 "partial_explicit.okl"
    int j = blockIdx.y;
    {
#line 4 "partial_explicit.okl"
      int i = blockIdx.x;
      {
#line 5 "partial_explicit.okl"
        int y = threadIdx.y;
        {
#line 6 "partial_explicit.okl"
          int x = threadIdx.x;
          ids[((j * n + i) * 3 + y) * 5 + x] = x + 5 * y;
        }
      }
    }
  }
}
