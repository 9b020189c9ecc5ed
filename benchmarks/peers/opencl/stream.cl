// Hand-written OpenCL peers of kernels/stream.okl.  copy/mul/add/triad: one element per
// work-item, p_B work-items per group.  dot: the OKL kernel's algorithm -- nblocks groups of
// p_DOTB work-items, each group owning one contiguous chunk (a multiple of p_DOTB, passed by
// the host), private running sums, a local-memory tree, then a one-group second kernel over
// the partials.
#ifndef dfloat
#define dfloat double
#endif
#ifndef p_B
#define p_B 256
#endif
#ifndef p_DOTB
#define p_DOTB 256
#endif
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define STREAM_GROUP __attribute__((reqd_work_group_size(p_B, 1, 1)))
#define DOT_GROUP __attribute__((reqd_work_group_size(p_DOTB, 1, 1)))

__kernel STREAM_GROUP void stream_copy(const int n, __global const dfloat *restrict a,
                                       __global dfloat *restrict c) {
  const int i = get_global_id(0);
  if (i < n) c[i] = a[i];
}

__kernel STREAM_GROUP void stream_mul(const int n, const dfloat scalar,
                                      __global const dfloat *restrict c,
                                      __global dfloat *restrict b) {
  const int i = get_global_id(0);
  if (i < n) b[i] = scalar * c[i];
}

__kernel STREAM_GROUP void stream_add(const int n, __global const dfloat *restrict a,
                                      __global const dfloat *restrict b,
                                      __global dfloat *restrict c) {
  const int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}

__kernel STREAM_GROUP void stream_triad(const int n, const dfloat scalar,
                                        __global const dfloat *restrict b,
                                        __global const dfloat *restrict c,
                                        __global dfloat *restrict a) {
  const int i = get_global_id(0);
  if (i < n) a[i] = b[i] + scalar * c[i];
}

// Tree sum of s[0 .. p_DOTB) into s[0]; every work-item of the group must call it.
inline void group_tree_sum(__local dfloat *s, const int t) {
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int m = p_DOTB / 2; m > 0; m >>= 1) {
    if (t < m) s[t] += s[t + m];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

__kernel DOT_GROUP void stream_dot(const int n, const int chunk,
                                   __global const dfloat *restrict a,
                                   __global const dfloat *restrict b,
                                   __global dfloat *restrict partial) {
  __local dfloat s_sum[p_DOTB];
  const int t = get_local_id(0);
  const int start = get_group_id(0) * chunk + t;
  dfloat sum = 0;
  for (int k = 0; k < chunk; k += p_DOTB) {
    const int i = start + k;
    if (i < n) sum += a[i] * b[i];
  }
  s_sum[t] = sum;
  group_tree_sum(s_sum, t);
  if (t == 0) partial[get_group_id(0)] = s_sum[0];
}

__kernel DOT_GROUP void stream_dot_final(const int nblocks,
                                         __global const dfloat *restrict partial,
                                         __global dfloat *restrict result) {
  __local dfloat s_sum[p_DOTB];
  const int t = get_local_id(0);
  dfloat v = 0;
  for (int j = t; j < nblocks; j += p_DOTB) v += partial[j];
  s_sum[t] = v;
  group_tree_sum(s_sum, t);
  if (t == 0) result[0] = s_sum[0];
}
