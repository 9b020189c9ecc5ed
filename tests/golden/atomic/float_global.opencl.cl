void _okl_atomic_add_float_global(volatile __global float *p, float v) {
#if defined(cl_nv_pragma_unroll)
  asm volatile("red.global.add.f32 [%0], %1;" :: "l"(p), "f"(v) : "memory");
  return;
#endif
  union { unsigned int u; float f; } old, next, seen;
  old.f = *p;
  for (;;) {
    next.f = old.f + v;
    seen.u = atomic_cmpxchg((volatile __global unsigned int *) p, old.u, next.u);
    if (seen.u == old.u) return;
    old.u = seen.u;
  }
}

#line 3 "float_global.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_floatOps_0(const int n, __global const float *x, __global float *acc, ulong _okl_off_x, ulong _okl_off_acc) {
  x += _okl_off_x;
  acc += _okl_off_acc;
  {
#line 4 "float_global.okl"
    int b = get_group_id(0);
    {
#line 5 "float_global.okl"
      int t = get_local_id(0);
      const float v = x[b * 64 + t];
      _okl_atomic_add_float_global(&acc[0], v);
      _okl_atomic_add_float_global(&acc[1], -(0.5f * v));
      _okl_atomic_add_float_global(&acc[2], 1);
      _okl_atomic_add_float_global(&acc[3], -1);
      atomic_xchg(&acc[4], v);
    }
  }
}
