
#line 2 "partial_explicit.okl"
__kernel __attribute__((reqd_work_group_size(5, 3, 1))) void _okl_partial_0(const int n, const int m, __global int *ids, ulong _okl_off_ids) {
  ids += _okl_off_ids;
  {
#line 3 "partial_explicit.okl"
    int j = get_group_id(1);
    {
#line 4 "partial_explicit.okl"
      int i = get_group_id(0);
      {
#line 5 "partial_explicit.okl"
        int y = get_local_id(1);
        {
#line 6 "partial_explicit.okl"
          int x = get_local_id(0);
          ids[((j * n + i) * 3 + y) * 5 + x] = x + 5 * y;
        }
      }
    }
  }
}
