#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#line 2 "long_global.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_longOps_0(const int n, __global const long *x, __global long *acc, __global unsigned long *uacc, ulong _okl_off_x, ulong _okl_off_acc, ulong _okl_off_uacc) {
  x += _okl_off_x;
  acc += _okl_off_acc;
  uacc += _okl_off_uacc;
  {
#line 3 "long_global.okl"
    int b = get_group_id(0);
    {
#line 4 "long_global.okl"
      int t = get_local_id(0);
      const long v = x[b * 32 + t];
      atom_add(&acc[0], v);
      atom_sub(&acc[1], v);
      atom_add(&acc[2], 1);
      atom_sub(&acc[3], 1);
      atom_and(&acc[4], v);
      atom_or(&acc[5], v);
      atom_xor(&acc[6], v);
      atom_xchg(&acc[7], v);
      atom_add(&uacc[0], (unsigned long) v);
      atom_sub(&uacc[1], 1);
    }
  }
}
