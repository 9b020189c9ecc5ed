#include <hip/hip_runtime.h>

#line 2 "scalar_params.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_axpby_0(const int n, const unsigned int stride, const long offset, const float alpha, const double beta, const char flag, const short tag, const float *x, double *y) {
  {
#line 5 "scalar_params.okl"
    int b = blockIdx.x;
    {
#line 6 "scalar_params.okl"
      int t = threadIdx.x;
      const long i = offset + ((long) (b * 32 + t)) * stride;
      if (flag) {
        y[i] = alpha * x[i] + beta * y[i] + tag;
      } else {
        y[i] = beta * y[i];
      }
    }
  }
}
