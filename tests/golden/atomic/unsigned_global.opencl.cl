
#line 2 "unsigned_global.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_unsignedOps_0(const int n, __global const unsigned int *x, __global unsigned int *acc, ulong _okl_off_x, ulong _okl_off_acc) {
  x += _okl_off_x;
  acc += _okl_off_acc;
  {
#line 3 "unsigned_global.okl"
    int b = get_group_id(0);
    {
#line 4 "unsigned_global.okl"
      int t = get_local_id(0);
      const unsigned int v = x[b * 32 + t];
      atomic_add(&(*acc), v);
      atomic_sub(&acc[1], v);
      atomic_add(&acc[2], 1);
      atomic_sub(&acc[3], 1);
      atomic_and(&acc[4], v);
      atomic_or(&acc[5], v);
      atomic_xor(&acc[6], v);
      atomic_xchg(&acc[7], v);
    }
  }
}
