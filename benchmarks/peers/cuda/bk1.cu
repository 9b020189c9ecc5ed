// Hand-written CUDA peer of kernels/bk1.okl (BK1 mass operator, cubature cubNq = N + 2): one
// element per block, a cubNq x cubNq (b, a) thread plane, I, q and the two partial sums in
// shared memory, the k/c direction per thread in registers -- the OKL kernel's algorithm.
#ifndef dfloat
#define dfloat double
#endif
#ifndef p_Nq
#define p_Nq 8
#endif
#ifndef p_cubNq
#define p_cubNq (p_Nq + 1)
#endif
#define p_Np (p_Nq * p_Nq * p_Nq)
#define p_cubNp (p_cubNq * p_cubNq * p_cubNq)
// nvcc does not macro-expand the argument of `#pragma unroll`; a constexpr works.
constexpr int c_Nq = p_Nq;
constexpr int c_cubNq = p_cubNq;

extern "C" __global__ void __launch_bounds__(p_cubNq * p_cubNq)
bk1(const int Nelements, const dfloat *__restrict__ wJ, const dfloat *__restrict__ I,
    const dfloat *__restrict__ q, dfloat *__restrict__ Mq) {
  __shared__ dfloat s_I[p_cubNq][p_Nq];
  __shared__ dfloat s_q[p_Nq][p_Nq][p_Nq];
  __shared__ dfloat s_A[p_Nq][p_cubNq][p_cubNq];
  __shared__ dfloat s_B[p_Nq][p_cubNq][p_cubNq];

  const int e = blockIdx.x;
  const int a = threadIdx.x, b = threadIdx.y;

  if (a < p_Nq) {
    s_I[b][a] = I[b * p_Nq + a];
    if (b < p_Nq) {
#pragma unroll c_Nq
      for (int k = 0; k < p_Nq; ++k) s_q[k][b][a] = q[e * p_Np + (k * p_Nq + b) * p_Nq + a];
    }
  }
  __syncthreads();

  if (b < p_Nq) {  // along i
#pragma unroll c_Nq
    for (int k = 0; k < p_Nq; ++k) {
      dfloat r = 0;
#pragma unroll c_Nq
      for (int i = 0; i < p_Nq; ++i) r += s_I[a][i] * s_q[k][b][i];
      s_A[k][b][a] = r;
    }
  }
  __syncthreads();

#pragma unroll c_Nq
  for (int k = 0; k < p_Nq; ++k) {  // along j
    dfloat r = 0;
#pragma unroll c_Nq
    for (int j = 0; j < p_Nq; ++j) r += s_I[b][j] * s_A[k][j][a];
    s_B[k][b][a] = r;
  }
  __syncthreads();

  {  // along k, times wJ, and back along k: this thread's column only
    dfloat r_c[p_cubNq];
#pragma unroll c_cubNq
    for (int c = 0; c < p_cubNq; ++c) {
      dfloat r = 0;
#pragma unroll c_Nq
      for (int k = 0; k < p_Nq; ++k) r += s_I[c][k] * s_B[k][b][a];
      r_c[c] = r * wJ[e * p_cubNp + (c * p_cubNq + b) * p_cubNq + a];
    }
#pragma unroll c_Nq
    for (int k = 0; k < p_Nq; ++k) {
      dfloat r = 0;
#pragma unroll c_cubNq
      for (int c = 0; c < p_cubNq; ++c) r += s_I[c][k] * r_c[c];
      s_B[k][b][a] = r;
    }
  }
  __syncthreads();

  if (b < p_Nq) {  // back along j
#pragma unroll c_Nq
    for (int k = 0; k < p_Nq; ++k) {
      dfloat r = 0;
#pragma unroll c_cubNq
      for (int c = 0; c < p_cubNq; ++c) r += s_I[c][b] * s_B[k][c][a];
      s_A[k][b][a] = r;
    }
  }
  __syncthreads();

  if (b < p_Nq && a < p_Nq) {  // back along i, write
#pragma unroll c_Nq
    for (int k = 0; k < p_Nq; ++k) {
      dfloat r = 0;
#pragma unroll c_cubNq
      for (int c = 0; c < p_cubNq; ++c) r += s_I[c][a] * s_A[k][b][c];
      Mq[e * p_Np + (k * p_Nq + b) * p_Nq + a] = r;
    }
  }
}
