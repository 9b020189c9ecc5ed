// Hand-written CUDA peers of kernels/stream.okl, launched through CuPy RawModule (NVRTC)
// with the same options as okl's CUDA output.  One element per thread for copy/mul/add/triad;
// dot uses the OKL kernel's algorithm: nblocks blocks, each owning one contiguous chunk,
// register partial sums, a shared-memory tree and a second one-block kernel.
#ifndef dfloat
#define dfloat double
#endif
#ifndef p_DOTB
#define p_DOTB 256
#endif

extern "C" __global__ void stream_copy(const int n, const dfloat *__restrict__ a,
                                       dfloat *__restrict__ c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i];
}

extern "C" __global__ void stream_mul(const int n, const dfloat scalar,
                                      const dfloat *__restrict__ c, dfloat *__restrict__ b) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = scalar * c[i];
}

extern "C" __global__ void stream_add(const int n, const dfloat *__restrict__ a,
                                      const dfloat *__restrict__ b, dfloat *__restrict__ c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void stream_triad(const int n, const dfloat scalar,
                                        const dfloat *__restrict__ b,
                                        const dfloat *__restrict__ c, dfloat *__restrict__ a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i] + scalar * c[i];
}

extern "C" __global__ void __launch_bounds__(p_DOTB)
stream_dot(const int n, const int chunk, const dfloat *__restrict__ a,
           const dfloat *__restrict__ b, dfloat *__restrict__ partial) {
  __shared__ dfloat s_sum[p_DOTB];
  const int t = threadIdx.x;
  const int start = blockIdx.x * chunk;
  dfloat sum = 0;
  for (int k = 0; k < chunk; k += p_DOTB) {
    const int i = start + k + t;
    if (i < n) sum += a[i] * b[i];
  }
  s_sum[t] = sum;
  __syncthreads();
  for (int m = p_DOTB / 2; m > 0; m /= 2) {
    if (t < m) s_sum[t] += s_sum[t + m];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s_sum[0];
}

extern "C" __global__ void __launch_bounds__(p_DOTB)
stream_dot_final(const int nblocks, const dfloat *__restrict__ partial,
                 dfloat *__restrict__ result) {
  __shared__ dfloat s_sum[p_DOTB];
  const int t = threadIdx.x;
  dfloat v = 0;
  for (int j = t; j < nblocks; j += p_DOTB) v += partial[j];
  s_sum[t] = v;
  __syncthreads();
  for (int m = p_DOTB / 2; m > 0; m /= 2) {
    if (t < m) s_sum[t] += s_sum[t + m];
    __syncthreads();
  }
  if (t == 0) result[0] = s_sum[0];
}
