#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
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

#line 6 "struct_fields.okl"
typedef struct
{
#line 3 "struct_fields.okl"
  int count;
  float total;
  double weighted;
} stats_t;

__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_accumulate_0(const int n, __global const float *x, __global stats_t *stats, __global stats_t *bins, ulong _okl_off_x, ulong _okl_off_stats, ulong _okl_off_bins) {
  x += _okl_off_x;
  stats += _okl_off_stats;
  bins += _okl_off_bins;
  {
#line 9 "struct_fields.okl"
    int b = get_group_id(0);
    {
#line 10 "struct_fields.okl"
      int t = get_local_id(0);
      const float v = x[b * 32 + t];
      atomic_add(&stats->count, 1);
      _okl_atomic_add_float_global(&stats->total, v);
      _okl_atomic_add_double_global(&bins[t % 4].weighted, 0.25 * v);
      _okl_atomic_add_double_global(&stats[0].weighted, -v);
    }
  }
}
