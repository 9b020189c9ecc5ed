
#line 2 "int_global.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_intOps_0(const int n, __global const int *x, __global int *acc, ulong _okl_off_x, ulong _okl_off_acc) {
  x += _okl_off_x;
  acc += _okl_off_acc;
  {
#line 3 "int_global.okl"
    int b = get_group_id(0);
    {
#line 4 "int_global.okl"
      int t = get_local_id(0);
      const int v = x[b * 32 + t];
      atomic_add(&acc[0], v);
      atomic_sub(&acc[1], v);
      atomic_add(&acc[2], 1);
      atomic_add(&acc[3], 1);
      atomic_sub(&acc[4], 1);
      atomic_sub(&acc[5], 1);
      atomic_and(&acc[6], v);
      atomic_or(&acc[7], v);
      atomic_xor(&acc[8], v);
      atomic_xchg(&acc[9], v);
    }
  }
}
