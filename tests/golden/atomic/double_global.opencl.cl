#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
void _okl_atomic_add_double_global(volatile __global double *p, double v) {
#if defined(cl_nv_pragma_unroll)
  asm volatile("red.global.add.f64 [%0], %1;" :: "l"(p), "d"(v) : "memory");
  return;
#endif
  union { unsigned long u; double f; } old, next, seen;
  old.f = *p;
  for (;;) {
    next.f = old.f + v;
    seen.u = atom_cmpxchg((volatile __global unsigned long *) p, old.u, next.u);
    if (seen.u == old.u) return;
    old.u = seen.u;
  }
}

#line 2 "double_global.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_doubleOps_0(const int n, __global const double *x, __global double *acc, ulong _okl_off_x, ulong _okl_off_acc) {
  x += _okl_off_x;
  acc += _okl_off_acc;
  {
#line 3 "double_global.okl"
    int b = get_group_id(0);
    {
#line 4 "double_global.okl"
      int t = get_local_id(0);
      const double v = x[b * 64 + t];
      _okl_atomic_add_double_global(&acc[0], v * v);
      _okl_atomic_add_double_global(&acc[1], -v);
      _okl_atomic_add_double_global(&acc[2], 1);
      _okl_atomic_add_double_global(&acc[3], -1);
      atom_xchg((volatile __global long *) (&acc[4]), as_long((double) v));
    }
  }
}
