// Hand-written OpenCL peers of kernels/reduction.okl: groups of p_B work-items own p_B * p_U
// contiguous floats, sum them privately over p_U coalesced sweeps and reduce through a
// local-memory tree; then either a one-group second pass over the partials
// (reduce_shared + reduce_final) or one atomic add per group (reduce_atomic).
// OpenCL 1.2 has no atomic add on float: a 32-bit compare-and-swap loop on the bits stands in
// (on NVIDIA's OpenCL, detected by its cl_nv_pragma_unroll macro, the PTX reduction).
#ifndef p_B
#define p_B 256
#endif
#ifndef p_U
#define p_U 32
#endif

#define GROUP __attribute__((reqd_work_group_size(p_B, 1, 1)))

inline void atomic_add_f32(volatile __global float *p, const float v) {
#if defined(cl_nv_pragma_unroll)
  asm volatile("red.global.add.f32 [%0], %1;" :: "l"(p), "f"(v) : "memory");
#else
  uint expected = as_uint(*p);
  for (;;) {
    const uint seen = atomic_cmpxchg((volatile __global uint *)p, expected,
                                     as_uint(as_float(expected) + v));
    if (seen == expected) break;
    expected = seen;  // another group got there first: retry on its value
  }
#endif
}

// Tree sum of s[0 .. p_B) into s[0]; every work-item of the group must call it.
inline void group_tree_sum(__local float *s, const int t) {
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int m = p_B / 2; m > 0; m >>= 1) {
    if (t < m) s[t] += s[t + m];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// This group's p_B * p_U entries summed into s_x[0].
inline void group_sum(const int n, __global const float *restrict x, __local float *s_x) {
  const int t = get_local_id(0);
  const int first = get_group_id(0) * (p_B * p_U) + t;
  float sum = 0.0f;
  for (int u = 0; u < p_U; ++u) {
    const int i = first + u * p_B;
    if (i < n) sum += x[i];
  }
  s_x[t] = sum;
  group_tree_sum(s_x, t);
}

__kernel GROUP void reduce_shared(const int n, __global const float *restrict x,
                                  __global float *restrict partial) {
  __local float s_x[p_B];
  group_sum(n, x, s_x);
  if (get_local_id(0) == 0) partial[get_group_id(0)] = s_x[0];
}

__kernel GROUP void reduce_final(const int nblocks, __global const float *restrict partial,
                                 __global float *restrict total) {
  __local float s_x[p_B];
  const int t = get_local_id(0);
  float v = 0.0f;
  for (int j = t; j < nblocks; j += p_B) v += partial[j];
  s_x[t] = v;
  group_tree_sum(s_x, t);
  if (t == 0) total[0] = s_x[0];
}

__kernel GROUP void reduce_atomic(const int n, __global const float *restrict x,
                                  __global float *total) {
  __local float s_x[p_B];
  group_sum(n, x, s_x);
  if (get_local_id(0) == 0) atomic_add_f32(total, s_x[0]);
}
