// Hand-written CUDA peers of kernels/reduction.okl: blocks of p_B threads own p_B * p_U
// contiguous floats, sum them in registers over p_U coalesced sweeps, reduce through a
// shared-memory tree; then either a one-block second pass over the partials
// (reduce_shared + reduce_final) or one atomicAdd per block (reduce_atomic).
#ifndef p_B
#define p_B 256
#endif
#ifndef p_U
#define p_U 32
#endif

__device__ __forceinline__ float block_sum(const int n, const float *__restrict__ x,
                                           float *s_x) {
  const int t = threadIdx.x;
  float sum = 0;
  for (int u = 0; u < p_U; ++u) {
    const int i = (blockIdx.x * p_U + u) * p_B + t;
    if (i < n) sum += x[i];
  }
  s_x[t] = sum;
  __syncthreads();
  for (int m = p_B / 2; m > 0; m /= 2) {
    if (t < m) s_x[t] += s_x[t + m];
    __syncthreads();
  }
  return s_x[0];
}

extern "C" __global__ void __launch_bounds__(p_B)
reduce_shared(const int n, const float *__restrict__ x, float *__restrict__ partial) {
  __shared__ float s_x[p_B];
  const float s = block_sum(n, x, s_x);
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

extern "C" __global__ void __launch_bounds__(p_B)
reduce_final(const int nblocks, const float *__restrict__ partial, float *__restrict__ total) {
  __shared__ float s_x[p_B];
  const int t = threadIdx.x;
  float v = 0;
  for (int j = t; j < nblocks; j += p_B) v += partial[j];
  s_x[t] = v;
  __syncthreads();
  for (int m = p_B / 2; m > 0; m /= 2) {
    if (t < m) s_x[t] += s_x[t + m];
    __syncthreads();
  }
  if (t == 0) total[0] = s_x[0];
}

extern "C" __global__ void __launch_bounds__(p_B)
reduce_atomic(const int n, const float *__restrict__ x, float *total) {
  __shared__ float s_x[p_B];
  const float s = block_sum(n, x, s_x);
  if (threadIdx.x == 0) atomicAdd(total, s);
}
