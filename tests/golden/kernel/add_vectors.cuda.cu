
#line 2 "add_vectors.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_addVectors_0(const int entries, const float *a, const float *b, float *ab) {
  {
#line 3 "add_vectors.okl"
    int block = blockIdx.x;
    {
#line 4 "add_vectors.okl"
      int t = threadIdx.x;
      const int i = block * 16 + t;
      if (i < entries) {
        ab[i] = a[i] + b[i];
      }
    }
  }
}
