
#line 4 "dim_typedef.okl"
typedef float *field3;

#line 5 "dim_typedef.okl"
typedef const float *cfield3;

extern "C" __global__ __launch_bounds__(16) void _okl_gradient_0(const int ne, const float *u, field3 du) {
  {
#line 8 "dim_typedef.okl"
    int e = blockIdx.x;
    {
#line 9 "dim_typedef.okl"
      int j = threadIdx.y;
      {
#line 10 "dim_typedef.okl"
        int i = threadIdx.x;
        cfield3 ue = u + e * 4 * 4 * 4;
        for (int k = 0; k < 4; ++k) {
          du[i + 4 * (j + 4 * (k + e * 4))] = ue[(i + 1) % 4 + 4 * (j + 4 * k)] - ue[i + 4 * (j + 4 * k)];
        }
      }
    }
  }
}
