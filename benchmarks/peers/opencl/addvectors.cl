// Hand-written OpenCL peer of kernels/addvectors.okl (also the launch-latency probe):
// one entry per work-item, p_B work-items per group, global size rounded up to p_B.
#ifndef p_B
#define p_B 256
#endif

__kernel __attribute__((reqd_work_group_size(p_B, 1, 1)))
void add_vectors(const int n, __global const float *restrict a,
                 __global const float *restrict b, __global float *restrict ab) {
  const int i = get_global_id(0);
  if (i < n) ab[i] = a[i] + b[i];
}
