
#line 2 "runtime_inner.okl"
__kernel void _okl_rowSums_0(const int rows, const int cols, __global const float *a, __global float *partial, ulong _okl_off_a, ulong _okl_off_partial) {
  a += _okl_off_a;
  partial += _okl_off_partial;
  {
#line 3 "runtime_inner.okl"
    int r = get_group_id(0);
    {
#line 4 "runtime_inner.okl"
      int c = get_local_id(0);
      partial[r * cols + c] = a[r * cols + c] * a[r * cols + c];
    }
  }
}
