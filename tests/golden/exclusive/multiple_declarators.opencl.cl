
#line 2 "multiple_declarators.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_manyNames_0(const int nb, __global const int *ids, __global float *x, ulong _okl_off_ids, ulong _okl_off_x) {
  ids += _okl_off_ids;
  x += _okl_off_x;
  {
#line 3 "multiple_declarators.okl"
    int b = get_group_id(0);
    int r_e;
#line 4 "multiple_declarators.okl"
    int r_pair[2];
    __global float *r_row;
    {
#line 6 "multiple_declarators.okl"
      int t = get_local_id(0);
      r_e = ids[b * 16 + t];
      r_pair[0] = r_e;
      r_pair[1] = r_e + 1;
      r_row = x + r_e * 4;
    }
    {
      r_row[0] = (float) (r_pair[0] + r_pair[1]);
    }
  }
}
