#include <hip/hip_runtime.h>

#line 2 "multiple_declarators.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_manyNames_0(const int nb, const int *ids, float *x) {
  {
#line 3 "multiple_declarators.okl"
    int b = blockIdx.x;
    int r_e;
#line 4 "multiple_declarators.okl"
    int r_pair[2];
    float *r_row;
    {
#line 6 "multiple_declarators.okl"
      int t = threadIdx.x;
      r_e = ids[b * 16 + t];
      r_pair[0] = r_e;
      r_pair[1] = r_e + 1;
      r_row = x + r_e * 4;
    }
    {
      r_row[0] = (float) (r_pair[0] + r_pair[1]);
    }
  }
}
