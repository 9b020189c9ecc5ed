
#line 2 "runtime_inner.okl"
extern "C" __global__ void _okl_rowSums_0(const int rows, const int cols, const float *a, float *partial) {
  {
#line 3 "runtime_inner.okl"
    int r = blockIdx.x;
    {
#line 4 "runtime_inner.okl"
      int c = threadIdx.x;
      partial[r * cols + c] = a[r * cols + c] * a[r * cols + c];
    }
  }
}
