/* Hand-written OpenMP peer of kernels/bk1.okl (BK1 mass operator, cubature cubNq = N + 2):
 * one element per loop iteration, the six 1-D sum-factorization passes written as plain C
 * with the unit-stride index innermost (so gcc vectorises it) on element-local temporaries.
 * Same data layout and defines as the OKL kernel (dfloat, p_Nq, p_cubNq). */
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

void bk1(int Nelements, const dfloat *restrict wJ, const dfloat *restrict I,
         const dfloat *restrict q, dfloat *restrict Mq) {
  dfloat It[p_Nq][p_cubNq]; /* It[i][a] = I[a][i] */
  for (int a = 0; a < p_cubNq; ++a)
    for (int i = 0; i < p_Nq; ++i) It[i][a] = I[a * p_Nq + i];

#pragma omp parallel for
  for (int e = 0; e < Nelements; ++e) {
    const dfloat(*qe)[p_Nq][p_Nq] = (const dfloat(*)[p_Nq][p_Nq])(q + (long)e * p_Np);
    const dfloat *we = wJ + (long)e * p_cubNp;
    dfloat(*Me)[p_Nq][p_Nq] = (dfloat(*)[p_Nq][p_Nq])(Mq + (long)e * p_Np);
    dfloat A[p_Nq][p_Nq][p_cubNq];     /* [k][j][a] */
    dfloat B[p_Nq][p_cubNq][p_cubNq];  /* [k][b][a] */
    dfloat C[p_cubNq][p_cubNq][p_cubNq]; /* [c][b][a] */

    /* along i: A[k][j][a] = sum_i I[a][i] q[k][j][i] */
    for (int k = 0; k < p_Nq; ++k)
      for (int j = 0; j < p_Nq; ++j) {
        dfloat acc[p_cubNq] = {0};
        for (int i = 0; i < p_Nq; ++i) {
          const dfloat v = qe[k][j][i];
          for (int a = 0; a < p_cubNq; ++a) acc[a] += It[i][a] * v;
        }
        for (int a = 0; a < p_cubNq; ++a) A[k][j][a] = acc[a];
      }
    /* along j: B[k][b][a] = sum_j I[b][j] A[k][j][a] */
    for (int k = 0; k < p_Nq; ++k)
      for (int b = 0; b < p_cubNq; ++b) {
        dfloat acc[p_cubNq] = {0};
        for (int j = 0; j < p_Nq; ++j) {
          const dfloat Ibj = I[b * p_Nq + j];
          for (int a = 0; a < p_cubNq; ++a) acc[a] += Ibj * A[k][j][a];
        }
        for (int a = 0; a < p_cubNq; ++a) B[k][b][a] = acc[a];
      }
    /* along k, then times wJ: C[c][b][a] = wJ * sum_k I[c][k] B[k][b][a] */
    for (int c = 0; c < p_cubNq; ++c) {
      dfloat *Cc = &C[c][0][0];
      const dfloat *wc = we + c * p_cubNq * p_cubNq;
      for (int n = 0; n < p_cubNq * p_cubNq; ++n) Cc[n] = 0;
      for (int k = 0; k < p_Nq; ++k) {
        const dfloat Ick = I[c * p_Nq + k];
        const dfloat *Bk = &B[k][0][0];
        for (int n = 0; n < p_cubNq * p_cubNq; ++n) Cc[n] += Ick * Bk[n];
      }
      for (int n = 0; n < p_cubNq * p_cubNq; ++n) Cc[n] *= wc[n];
    }
    /* back along k: B[k][b][a] = sum_c I[c][k] C[c][b][a] */
    for (int k = 0; k < p_Nq; ++k) {
      dfloat *Bk = &B[k][0][0];
      for (int n = 0; n < p_cubNq * p_cubNq; ++n) Bk[n] = 0;
      for (int c = 0; c < p_cubNq; ++c) {
        const dfloat Ick = I[c * p_Nq + k];
        const dfloat *Cc = &C[c][0][0];
        for (int n = 0; n < p_cubNq * p_cubNq; ++n) Bk[n] += Ick * Cc[n];
      }
    }
    /* back along j: A[k][j][a] = sum_b I[b][j] B[k][b][a] */
    for (int k = 0; k < p_Nq; ++k)
      for (int j = 0; j < p_Nq; ++j) {
        dfloat acc[p_cubNq] = {0};
        for (int b = 0; b < p_cubNq; ++b) {
          const dfloat Ibj = I[b * p_Nq + j];
          for (int a = 0; a < p_cubNq; ++a) acc[a] += Ibj * B[k][b][a];
        }
        for (int a = 0; a < p_cubNq; ++a) A[k][j][a] = acc[a];
      }
    /* back along i: Mq[k][j][i] = sum_a I[a][i] A[k][j][a] */
    for (int k = 0; k < p_Nq; ++k)
      for (int j = 0; j < p_Nq; ++j) {
        dfloat acc[p_Nq] = {0};
        for (int a = 0; a < p_cubNq; ++a) {
          const dfloat v = A[k][j][a];
          for (int i = 0; i < p_Nq; ++i) acc[i] += I[a * p_Nq + i] * v;
        }
        for (int i = 0; i < p_Nq; ++i) Me[k][j][i] = acc[i];
      }
  }
}
