// Hand-written CUDA peer of kernels/bk5.okl (CEED BK5): one element per block, an Nq x Nq
// thread plane walking the k slabs, the k-column of q and of Aq in registers, D and the slab
// quantities in shared memory, three barriers per slab -- the OKL kernel's algorithm.
#ifndef dfloat
#define dfloat double
#endif
#ifndef p_Nq
#define p_Nq 8
#endif
#define p_Np (p_Nq * p_Nq * p_Nq)
// nvcc does not macro-expand the argument of `#pragma unroll`; a constexpr works.
constexpr int c_Nq = p_Nq;

extern "C" __global__ void __launch_bounds__(p_Nq * p_Nq)
bk5(const int Nelements, const dfloat lambda, const dfloat *__restrict__ ggeo,
    const dfloat *__restrict__ D, const dfloat *__restrict__ q, dfloat *__restrict__ Aq) {
  __shared__ dfloat s_D[p_Nq][p_Nq];
  __shared__ dfloat s_q[p_Nq][p_Nq];
  __shared__ dfloat s_Gqr[p_Nq][p_Nq];
  __shared__ dfloat s_Gqs[p_Nq][p_Nq];
  dfloat r_q[p_Nq], r_Aq[p_Nq];

  const int e = blockIdx.x;
  const int i = threadIdx.x, j = threadIdx.y;
  const int base = e * p_Np + j * p_Nq + i;

  s_D[j][i] = D[j * p_Nq + i];
#pragma unroll c_Nq
  for (int k = 0; k < p_Nq; ++k) {
    r_q[k] = q[base + k * p_Nq * p_Nq];
    r_Aq[k] = 0;
  }
  __syncthreads();

#pragma unroll c_Nq
  for (int k = 0; k < p_Nq; ++k) {
    s_q[j][i] = r_q[k];
    dfloat qt = 0;
#pragma unroll c_Nq
    for (int m = 0; m < p_Nq; ++m) qt += s_D[k][m] * r_q[m];
    __syncthreads();

    dfloat qr = 0, qs = 0;
#pragma unroll c_Nq
    for (int m = 0; m < p_Nq; ++m) {
      qr += s_D[i][m] * s_q[j][m];
      qs += s_D[j][m] * s_q[m][i];
    }
    const int g = e * 7 * p_Np + k * p_Nq * p_Nq + j * p_Nq + i;
    const dfloat G00 = ggeo[g + 0 * p_Np], G01 = ggeo[g + 1 * p_Np], G02 = ggeo[g + 2 * p_Np];
    const dfloat G11 = ggeo[g + 3 * p_Np], G12 = ggeo[g + 4 * p_Np], G22 = ggeo[g + 5 * p_Np];
    const dfloat GwJ = ggeo[g + 6 * p_Np];
    s_Gqr[j][i] = G00 * qr + G01 * qs + G02 * qt;
    s_Gqs[j][i] = G01 * qr + G11 * qs + G12 * qt;
    const dfloat Gqt = G02 * qr + G12 * qs + G22 * qt;
    dfloat Auk = lambda * GwJ * r_q[k];
    __syncthreads();

#pragma unroll c_Nq
    for (int m = 0; m < p_Nq; ++m) {
      Auk += s_D[m][i] * s_Gqr[j][m];
      Auk += s_D[m][j] * s_Gqs[m][i];
      r_Aq[m] += s_D[k][m] * Gqt;
    }
    r_Aq[k] += Auk;
    __syncthreads();
  }

#pragma unroll c_Nq
  for (int k = 0; k < p_Nq; ++k) Aq[base + k * p_Nq * p_Nq] = r_Aq[k];
}
