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
void _okl_atomic_add_double_local(volatile __local double *p, double v) {
  union { unsigned long u; double f; } old, next, seen;
  old.f = *p;
  for (;;) {
    next.f = old.f + v;
    seen.u = atom_cmpxchg((volatile __local unsigned long *) p, old.u, next.u);
    if (seen.u == old.u) return;
    old.u = seen.u;
  }
}

#line 2 "shared_memory.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_sharedOps_0(const int nb, __global const int *keys, __global const double *w, __global int *counts, __global double *sums, ulong _okl_off_keys, ulong _okl_off_w, ulong _okl_off_counts, ulong _okl_off_sums) {
#line 5 "shared_memory.okl"
  __local int s_count[8];
  __local unsigned int s_bits[1];
  __local float s_max[1];
  __local double s_sum[8];
  keys += _okl_off_keys;
  w += _okl_off_w;
  counts += _okl_off_counts;
  sums += _okl_off_sums;
  {
#line 4 "shared_memory.okl"
    int b = get_group_id(0);
    {
#line 9 "shared_memory.okl"
      int t = get_local_id(0);
      if (t < 8) {
        s_count[t] = 0;
        s_sum[t] = 0.0;
      }
      if (t == 0) {
        s_bits[0] = 0u;
        s_max[0] = 0.0f;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 19 "shared_memory.okl"
      int t = get_local_id(0);
      const int k = keys[b * 64 + t] & 7;
      atomic_add(&s_count[k], 1);
      atomic_sub(&s_count[(k + 1) & 7], 1);
      atomic_or(&s_bits[0], 1u << k);
      atomic_xor(&s_bits[0], 1u);
      atomic_xchg(&s_max[0], (float) (k >= 0));
      _okl_atomic_add_double_local(&s_sum[k], w[b * 64 + t]);
      _okl_atomic_add_double_local(&s_sum[7 - k], -1.0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 29 "shared_memory.okl"
      int t = get_local_id(0);
      if (t < 8) {
        atomic_add(&counts[t], s_count[t] + ((int) s_bits[0]) + ((int) s_max[0]));
        _okl_atomic_add_double_global(&sums[t], s_sum[t]);
      }
    }
  }
}
