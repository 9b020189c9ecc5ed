// Hand-written OpenCL peer of kernels/bk5.okl (CEED BK5): one element per work-group, an
// Nq x Nq work-item plane walking the k slabs, the k-column of q and of Aq in private
// registers, D and the slab quantities in local memory, three barriers per slab -- the OKL
// kernel's algorithm.  Defines: dfloat (double), p_Nq.
#ifndef dfloat
#define dfloat double
#endif
#ifndef p_Nq
#define p_Nq 8
#endif
#define p_Np (p_Nq * p_Nq * p_Nq)
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

__kernel __attribute__((reqd_work_group_size(p_Nq, p_Nq, 1)))
void bk5(const int Nelements, const dfloat lambda, __global const dfloat *restrict ggeo,
         __global const dfloat *restrict D, __global const dfloat *restrict q,
         __global dfloat *restrict Aq) {
  __local dfloat s_D[p_Nq][p_Nq];
  __local dfloat s_q[p_Nq][p_Nq];
  __local dfloat s_Gqr[p_Nq][p_Nq];
  __local dfloat s_Gqs[p_Nq][p_Nq];
  dfloat r_q[p_Nq], r_Aq[p_Nq];

  const int e = get_group_id(0);
  const int i = get_local_id(0), j = get_local_id(1);
  const int base = e * p_Np + j * p_Nq + i;

  s_D[j][i] = D[j * p_Nq + i];
#pragma unroll
  for (int k = 0; k < p_Nq; ++k) {
    r_q[k] = q[base + k * p_Nq * p_Nq];
    r_Aq[k] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll
  for (int k = 0; k < p_Nq; ++k) {
    s_q[j][i] = r_q[k];
    dfloat qt = 0;
#pragma unroll
    for (int m = 0; m < p_Nq; ++m) qt += s_D[k][m] * r_q[m];
    barrier(CLK_LOCAL_MEM_FENCE);

    dfloat qr = 0, qs = 0;
#pragma unroll
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
    barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll
    for (int m = 0; m < p_Nq; ++m) {
      Auk += s_D[m][i] * s_Gqr[j][m];
      Auk += s_D[m][j] * s_Gqs[m][i];
      r_Aq[m] += s_D[k][m] * Gqt;
    }
    r_Aq[k] += Auk;
    barrier(CLK_LOCAL_MEM_FENCE);
  }

#pragma unroll
  for (int k = 0; k < p_Nq; ++k) Aq[base + k * p_Nq * p_Nq] = r_Aq[k];
}
