// Hand-written CUDA peer of kernels/addvectors.okl (also the launch-latency probe).
extern "C" __global__ void add_vectors(const int n, const float *__restrict__ a,
                                       const float *__restrict__ b, float *__restrict__ ab) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) ab[i] = a[i] + b[i];
}
