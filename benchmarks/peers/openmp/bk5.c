/* Hand-written OpenMP peer of kernels/bk5.okl (CEED BK5, collocated Poisson on hexahedra):
 * one element per loop iteration, written as plain C with the unit-stride index innermost
 * so that the compiler vectorises over i, and element-local temporaries for G * grad q.
 * Same data layout and defines as the OKL kernel (dfloat, p_Nq). */
#ifndef dfloat
#define dfloat double
#endif
#ifndef p_Nq
#define p_Nq 8
#endif
#define p_Np (p_Nq * p_Nq * p_Nq)

void bk5(int Nelements, dfloat lambda, const dfloat *restrict ggeo, const dfloat *restrict D,
         const dfloat *restrict q, dfloat *restrict Aq) {
  dfloat Dt[p_Nq][p_Nq]; /* Dt[m][i] = D[i][m] */
  for (int i = 0; i < p_Nq; ++i)
    for (int m = 0; m < p_Nq; ++m) Dt[m][i] = D[i * p_Nq + m];

#pragma omp parallel for
  for (int e = 0; e < Nelements; ++e) {
    const dfloat(*qe)[p_Nq][p_Nq] = (const dfloat(*)[p_Nq][p_Nq])(q + (long)e * p_Np);
    const dfloat *g = ggeo + (long)e * 7 * p_Np;
    dfloat(*Ae)[p_Nq][p_Nq] = (dfloat(*)[p_Nq][p_Nq])(Aq + (long)e * p_Np);
    /* the three element temporaries in one buffer, each padded by 16 entries: at Nq = 8 they
     * are 4 KiB each, and 4 KiB-aligned arrays read in the same iteration alias in L1 */
    dfloat Gbuf[3 * (p_Np + 16)];
    dfloat(*Gr)[p_Nq][p_Nq] = (dfloat(*)[p_Nq][p_Nq])(Gbuf);
    dfloat(*Gs)[p_Nq][p_Nq] = (dfloat(*)[p_Nq][p_Nq])(Gbuf + (p_Np + 16));
    dfloat(*Gt)[p_Nq][p_Nq] = (dfloat(*)[p_Nq][p_Nq])(Gbuf + 2 * (p_Np + 16));

    for (int k = 0; k < p_Nq; ++k)
      for (int j = 0; j < p_Nq; ++j) {
        dfloat qr[p_Nq] = {0}, qs[p_Nq] = {0}, qt[p_Nq] = {0};
        for (int m = 0; m < p_Nq; ++m) {
          const dfloat qkjm = qe[k][j][m], Djm = D[j * p_Nq + m], Dkm = D[k * p_Nq + m];
          for (int i = 0; i < p_Nq; ++i) {
            qr[i] += Dt[m][i] * qkjm;
            qs[i] += Djm * qe[k][m][i];
            qt[i] += Dkm * qe[m][j][i];
          }
        }
        const int n = (k * p_Nq + j) * p_Nq;
        for (int i = 0; i < p_Nq; ++i) {
          const dfloat G00 = g[0 * p_Np + n + i], G01 = g[1 * p_Np + n + i],
                       G02 = g[2 * p_Np + n + i], G11 = g[3 * p_Np + n + i],
                       G12 = g[4 * p_Np + n + i], G22 = g[5 * p_Np + n + i];
          Gr[k][j][i] = G00 * qr[i] + G01 * qs[i] + G02 * qt[i];
          Gs[k][j][i] = G01 * qr[i] + G11 * qs[i] + G12 * qt[i];
          Gt[k][j][i] = G02 * qr[i] + G12 * qs[i] + G22 * qt[i];
        }
      }

    for (int k = 0; k < p_Nq; ++k)
      for (int j = 0; j < p_Nq; ++j) {
        const int n = (k * p_Nq + j) * p_Nq;
        dfloat acc[p_Nq];
        for (int i = 0; i < p_Nq; ++i) acc[i] = lambda * g[6 * p_Np + n + i] * qe[k][j][i];
        for (int m = 0; m < p_Nq; ++m) {
          const dfloat Grm = Gr[k][j][m], Dmj = D[m * p_Nq + j], Dmk = D[m * p_Nq + k];
          for (int i = 0; i < p_Nq; ++i)
            acc[i] += D[m * p_Nq + i] * Grm + Dmj * Gs[k][m][i] + Dmk * Gt[m][j][i];
        }
        for (int i = 0; i < p_Nq; ++i) Ae[k][j][i] = acc[i];
      }
  }
}
