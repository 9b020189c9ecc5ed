
#line 3 "nested_outer_extents.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_twoGrids_0(const int nz, const int na, const int nb2, __global float *a, __global float *b, ulong _okl_off_a, ulong _okl_off_b) {
  a += _okl_off_a;
  b += _okl_off_b;
  {
#line 4 "nested_outer_extents.okl"
    int z = get_group_id(1);
    {
#line 5 "nested_outer_extents.okl"
      int i = get_group_id(0);
#line 5 "nested_outer_extents.okl"
      if (i < na) {
        {
#line 6 "nested_outer_extents.okl"
          int t = get_local_id(0);
          a[(z * na + i) * 16 + t] = 1.0f;
        }
      }
    }
    {
#line 10 "nested_outer_extents.okl"
      int j = get_group_id(0);
#line 10 "nested_outer_extents.okl"
      if (j < nb2) {
        {
#line 11 "nested_outer_extents.okl"
          int t = get_local_id(0);
          b[(z * nb2 + j) * 16 + t] = 2.0f;
        }
      }
    }
  }
}
