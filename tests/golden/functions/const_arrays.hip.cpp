#include <hip/hip_runtime.h>

#line 2 "const_arrays.okl"
__constant__ const int p_order = 3;

#line 3 "const_arrays.okl"
__constant__ const double gll_weights[4] = {1.0 / 6.0, 5.0 / 6.0, 5.0 / 6.0, 1.0 / 6.0};

#line 4 "const_arrays.okl"
__constant__ const float diff_matrix[2][2] = {{-0.5f, 0.5f}, {-0.5f, 0.5f}};

extern "C" __global__ __launch_bounds__(4) void _okl_weights_0(const int ne, const double *u, double *wu, float *du) {
  {
#line 7 "const_arrays.okl"
    int e = blockIdx.x;
    {
#line 8 "const_arrays.okl"
      int i = threadIdx.x;
      wu[e * 4 + i] = gll_weights[i] * u[e * 4 + i] * p_order;
      if (i < 2) du[e * 2 + i] = diff_matrix[i][0] + diff_matrix[i][1];
    }
  }
}
