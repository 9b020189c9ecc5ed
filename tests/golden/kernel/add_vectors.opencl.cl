
#line 2 "add_vectors.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_addVectors_0(const int entries, __global const float *a, __global const float *b, __global float *ab, ulong _okl_off_a, ulong _okl_off_b, ulong _okl_off_ab) {
  a += _okl_off_a;
  b += _okl_off_b;
  ab += _okl_off_ab;
  {
#line 3 "add_vectors.okl"
    int block = get_group_id(0);
    {
#line 4 "add_vectors.okl"
      int t = get_local_id(0);
      const int i = block * 16 + t;
      if (i < entries) {
        ab[i] = a[i] + b[i];
      }
    }
  }
}
