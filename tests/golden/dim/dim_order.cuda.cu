
#line 3 "dim_order.okl"
extern "C" __global__ void _okl_transposeView_0(const int n, const int m, const double *S, double *T) {
  {
    int j = blockIdx.x;
    {
#line 6 "dim_order.okl"
      int i = threadIdx.x;
      T[j + m * i] = S[i + n * j];
    }
  }
}
