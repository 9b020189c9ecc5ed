/* Hand-written OpenMP peer of kernels/dgvolume.okl (linearized acoustics DG volume kernel on
 * affine tetrahedra): p_NblockV elements per loop iteration (so that each row m of the D
 * matrices, read once, serves p_NblockV elements from L1); the twelve reference derivatives
 * as rank-1 updates over m with the node index n innermost (unit stride in the transposed D
 * matrices: gcc vectorises over n), then the chain rule with each element's constant
 * geometric factors.  Same data layout and defines as the OKL kernel (dfloat, p_Np,
 * p_NblockV). */
#ifndef dfloat
#define dfloat double
#endif
#ifndef p_Np
#define p_Np 56
#endif
#ifndef p_NblockV
#define p_NblockV 4
#endif
#define p_Nfields 4
#define p_Nvgeo 9

void dgvolume(int Nelements, const dfloat *restrict vgeo, const dfloat *restrict DT,
              const dfloat *restrict q, dfloat *restrict rhs) {
  const dfloat(*Dr)[p_Np] = (const dfloat(*)[p_Np])DT;  /* Dr[m][n] = D_r(n, m) */
  const dfloat(*Ds)[p_Np] = (const dfloat(*)[p_Np])(DT + p_Np * p_Np);
  const dfloat(*Dt)[p_Np] = (const dfloat(*)[p_Np])(DT + 2 * p_Np * p_Np);
  const int Nblocks = (Nelements + p_NblockV - 1) / p_NblockV;

#pragma omp parallel for
  for (int blk = 0; blk < Nblocks; ++blk) {
    const int e0 = blk * p_NblockV;
    const int nb = Nelements - e0 < p_NblockV ? Nelements - e0 : p_NblockV;
    /* d[es][t][n], t = p_r p_s p_t u_r u_s u_t v_r v_s v_t w_r w_s w_t */
    dfloat d[p_NblockV][12][p_Np];
    for (int es = 0; es < nb; ++es)
      for (int t = 0; t < 12; ++t)
        for (int n = 0; n < p_Np; ++n) d[es][t][n] = 0;
    for (int m = 0; m < p_Np; ++m) {
      const dfloat *restrict r = Dr[m], *restrict s = Ds[m], *restrict t = Dt[m];
      for (int es = 0; es < nb; ++es) {
        const dfloat *qe = q + (long)(e0 + es) * p_Nfields * p_Np;
        const dfloat pm = qe[m], um = qe[p_Np + m], vm = qe[2 * p_Np + m],
                     wm = qe[3 * p_Np + m];
        dfloat(*de)[p_Np] = d[es];
        for (int n = 0; n < p_Np; ++n) {
          de[0][n] += r[n] * pm; de[1][n] += s[n] * pm; de[2][n] += t[n] * pm;
          de[3][n] += r[n] * um; de[4][n] += s[n] * um; de[5][n] += t[n] * um;
          de[6][n] += r[n] * vm; de[7][n] += s[n] * vm; de[8][n] += t[n] * vm;
          de[9][n] += r[n] * wm; de[10][n] += s[n] * wm; de[11][n] += t[n] * wm;
        }
      }
    }
    for (int es = 0; es < nb; ++es) {
      const long e = e0 + es;
      const dfloat *g = vgeo + e * p_Nvgeo;
      const dfloat drdx = g[0], drdy = g[1], drdz = g[2];
      const dfloat dsdx = g[3], dsdy = g[4], dsdz = g[5];
      const dfloat dtdx = g[6], dtdy = g[7], dtdz = g[8];
      dfloat(*de)[p_Np] = d[es];
      dfloat *re = rhs + e * p_Nfields * p_Np;
      for (int n = 0; n < p_Np; ++n) {
        const dfloat pr = de[0][n], ps = de[1][n], pt = de[2][n];
        re[n] = -((drdx * de[3][n] + dsdx * de[4][n] + dtdx * de[5][n]) +
                  (drdy * de[6][n] + dsdy * de[7][n] + dtdy * de[8][n]) +
                  (drdz * de[9][n] + dsdz * de[10][n] + dtdz * de[11][n]));
        re[p_Np + n] = -(drdx * pr + dsdx * ps + dtdx * pt);
        re[2 * p_Np + n] = -(drdy * pr + dsdy * ps + dtdy * pt);
        re[3 * p_Np + n] = -(drdz * pr + dsdz * ps + dtdz * pt);
      }
    }
  }
}
