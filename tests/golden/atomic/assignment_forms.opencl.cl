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

#line 3 "assignment_forms.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_assignForms_0(const int n, __global const int *x, __global int *acc, __global float *f, ulong _okl_off_x, ulong _okl_off_acc, ulong _okl_off_f) {
  x += _okl_off_x;
  acc += _okl_off_acc;
  f += _okl_off_f;
  {
#line 4 "assignment_forms.okl"
    int b = get_group_id(0);
    {
#line 5 "assignment_forms.okl"
      int t = get_local_id(0);
      const int v = x[b * 32 + t];
      atomic_add(&acc[0], v);
      atomic_or(&acc[1], v);
      atomic_sub(&acc[2], 2 * v);
      _okl_atomic_add_float_global(&f[0], 0.5f);
    }
  }
}
