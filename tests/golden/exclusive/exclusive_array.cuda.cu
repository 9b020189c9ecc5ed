
#line 4 "exclusive_array.okl"
extern "C" __global__ __launch_bounds__(6) void _okl_registerArray_0(const int ne, const double *q, double *out) {
  {
#line 5 "exclusive_array.okl"
    int e = blockIdx.x;
    double r_q[6];
    {
#line 7 "exclusive_array.okl"
      int i = threadIdx.x;
      for (int k = 0; k < 6; ++k) {
        r_q[k] = q[(e * 6 + k) * 6 + i];
      }
    }
    {
#line 12 "exclusive_array.okl"
      int i = threadIdx.x;
      double s = 0.0;
      for (int k = 0; k < 6; ++k) s += r_q[k] * (k + 1);
      out[e * 6 + i] = s;
    }
  }
}
