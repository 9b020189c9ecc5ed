/* The hand-written BK5 peer (bk5.c) with every floating-point sum in OKL's order, the order
 * each thread of kernels/bk5.okl sums in: what a careful CPU programmer gets without
 * reassociating (benchmarks/codegen_experiments.py compares it).  The first phase is bk5.c's
 * (its order already is the kernel's); the second computes Auk = lambda GwJ q plus the r- and
 * s-terms alternating over m, then Aq[k'] as the t-terms over the slabs k in order with Auk
 * added right after k == k' -- bk5.c instead sums each m's three terms first and adds them
 * to the running sum (a different rounding, and a dependent chain a third as long).
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
    /* four element temporaries, each padded by 16 entries as in bk5.c */
    dfloat Gbuf[4 * (p_Np + 16)];
    dfloat(*Gr)[p_Nq][p_Nq] = (dfloat(*)[p_Nq][p_Nq])(Gbuf);
    dfloat(*Gs)[p_Nq][p_Nq] = (dfloat(*)[p_Nq][p_Nq])(Gbuf + (p_Np + 16));
    dfloat(*Gt)[p_Nq][p_Nq] = (dfloat(*)[p_Nq][p_Nq])(Gbuf + 2 * (p_Np + 16));
    dfloat(*Au)[p_Nq][p_Nq] = (dfloat(*)[p_Nq][p_Nq])(Gbuf + 3 * (p_Np + 16));

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
          const dfloat Grm = Gr[k][j][m], Dmj = D[m * p_Nq + j];
          for (int i = 0; i < p_Nq; ++i) {
            acc[i] += D[m * p_Nq + i] * Grm;
            acc[i] += Dmj * Gs[k][m][i];
          }
        }
        for (int i = 0; i < p_Nq; ++i) Au[k][j][i] = acc[i];
      }

    for (int kk = 0; kk < p_Nq; ++kk)
      for (int j = 0; j < p_Nq; ++j) {
        dfloat acc[p_Nq] = {0};
        for (int k = 0; k < p_Nq; ++k) {
          const dfloat Dkk = D[k * p_Nq + kk];
          for (int i = 0; i < p_Nq; ++i) acc[i] += Dkk * Gt[k][j][i];
          if (k == kk)
            for (int i = 0; i < p_Nq; ++i) acc[i] += Au[kk][j][i];
        }
        for (int i = 0; i < p_Nq; ++i) Ae[kk][j][i] = acc[i];
      }
  }
}
