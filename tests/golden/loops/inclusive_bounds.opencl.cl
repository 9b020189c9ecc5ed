
#line 2 "inclusive_bounds.okl"
__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void _okl_inclusive_0(const int last, __global int *hits, ulong _okl_off_hits) {
  hits += _okl_off_hits;
  {
#line 3 "inclusive_bounds.okl"
    int b = 1 + get_group_id(0);
    {
#line 4 "inclusive_bounds.okl"
      int t = 7 - get_local_id(0);
      hits[(b - 1) * 8 + t] = b;
    }
  }
}

#line 2 "inclusive_bounds.okl"
__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void _okl_inclusive_1(const int last, __global int *hits, ulong _okl_off_hits) {
  hits += _okl_off_hits;
  {
#line 8 "inclusive_bounds.okl"
    int b = get_group_id(0);
    {
#line 9 "inclusive_bounds.okl"
      int t = get_local_id(0);
      hits[b * 8 + t] += t;
    }
  }
}
