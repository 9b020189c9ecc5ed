/* Hand-written OpenMP peer of kernels/dgvolume.okl (linearized acoustics DG volume kernel on
 * affine tetrahedra): one element per loop iteration; the twelve reference derivatives as
 * rank-1 updates over m with the node index n innermost (unit stride in the transposed D
 * matrices, so gcc vectorises over n), then the chain rule with the element's constant
 * geometric factors.  Same data layout and defines as the OKL kernel (dfloat, p_Np;
 * p_NblockV is accepted and unused). */
#ifndef dfloat
#define dfloat double
#endif
#ifndef p_Np
#define p_Np 56
#endif
#define p_Nfields 4
#define p_Nvgeo 9

void dgvolume(int Nelements, const dfloat *restrict vgeo, const dfloat *restrict DT,
              const dfloat *restrict q, dfloat *restrict rhs) {
  const dfloat(*Dr)[p_Np] = (const dfloat(*)[p_Np])DT;  /* Dr[m][n] = D_r(n, m) */
  const dfloat(*Ds)[p_Np] = (const dfloat(*)[p_Np])(DT + p_Np * p_Np);
  const dfloat(*Dt)[p_Np] = (const dfloat(*)[p_Np])(DT + 2 * p_Np * p_Np);

#pragma omp parallel for
  for (int e = 0; e < Nelements; ++e) {
    const dfloat *qe = q + (long)e * p_Nfields * p_Np;
    dfloat *re = rhs + (long)e * p_Nfields * p_Np;
    dfloat d[12][p_Np]; /* p_r p_s p_t u_r u_s u_t v_r v_s v_t w_r w_s w_t */
    for (int t = 0; t < 12; ++t)
      for (int n = 0; n < p_Np; ++n) d[t][n] = 0;
    for (int m = 0; m < p_Np; ++m) {
      const dfloat pm = qe[m], um = qe[p_Np + m], vm = qe[2 * p_Np + m], wm = qe[3 * p_Np + m];
      for (int n = 0; n < p_Np; ++n) {
        const dfloat r = Dr[m][n], s = Ds[m][n], t = Dt[m][n];
        d[0][n] += r * pm; d[1][n] += s * pm; d[2][n] += t * pm;
        d[3][n] += r * um; d[4][n] += s * um; d[5][n] += t * um;
        d[6][n] += r * vm; d[7][n] += s * vm; d[8][n] += t * vm;
        d[9][n] += r * wm; d[10][n] += s * wm; d[11][n] += t * wm;
      }
    }
    const dfloat *g = vgeo + (long)e * p_Nvgeo;
    const dfloat drdx = g[0], drdy = g[1], drdz = g[2];
    const dfloat dsdx = g[3], dsdy = g[4], dsdz = g[5];
    const dfloat dtdx = g[6], dtdy = g[7], dtdz = g[8];
    for (int n = 0; n < p_Np; ++n) {
      const dfloat pr = d[0][n], ps = d[1][n], pt = d[2][n];
      re[n] = -((drdx * d[3][n] + dsdx * d[4][n] + dtdx * d[5][n]) +
                (drdy * d[6][n] + dsdy * d[7][n] + dtdy * d[8][n]) +
                (drdz * d[9][n] + dsdz * d[10][n] + dtdz * d[11][n]));
      re[p_Np + n] = -(drdx * pr + dsdx * ps + dtdx * pt);
      re[2 * p_Np + n] = -(drdy * pr + dsdy * ps + dtdy * pt);
      re[3 * p_Np + n] = -(drdz * pr + dsdz * ps + dtdz * pt);
    }
  }
}
