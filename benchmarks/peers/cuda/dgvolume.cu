// Hand-written CUDA peer of kernels/dgvolume.okl (linearized acoustics DG volume kernel on
// affine tetrahedra): p_NblockV elements per block, one thread per (element, node), the
// element's four fields in shared memory, the transposed D matrices read through the
// read-only cache, twelve reference derivatives and the chain rule -- the OKL kernel's
// algorithm.
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

extern "C" __global__ void __launch_bounds__(p_Np * p_NblockV)
dgvolume(const int Nelements, const dfloat *__restrict__ vgeo, const dfloat *__restrict__ DT,
         const dfloat *__restrict__ q, dfloat *__restrict__ rhs) {
  __shared__ dfloat s_q[p_NblockV][p_Nfields][p_Np];
  const int n = threadIdx.x, es = threadIdx.y;
  const int e = blockIdx.x * p_NblockV + es;

  if (e < Nelements) {
#pragma unroll
    for (int f = 0; f < p_Nfields; ++f) s_q[es][f][n] = q[(e * p_Nfields + f) * p_Np + n];
  }
  __syncthreads();
  if (e >= Nelements) return;

  dfloat pr = 0, ps = 0, pt = 0, ur = 0, us = 0, ut = 0;
  dfloat vr = 0, vs = 0, vt = 0, wr = 0, ws = 0, wt = 0;
#pragma unroll 8
  for (int m = 0; m < p_Np; ++m) {
    const dfloat Drm = __ldg(DT + m * p_Np + n);
    const dfloat Dsm = __ldg(DT + p_Np * p_Np + m * p_Np + n);
    const dfloat Dtm = __ldg(DT + 2 * p_Np * p_Np + m * p_Np + n);
    const dfloat pm = s_q[es][0][m], um = s_q[es][1][m];
    const dfloat vm = s_q[es][2][m], wm = s_q[es][3][m];
    pr += Drm * pm; ps += Dsm * pm; pt += Dtm * pm;
    ur += Drm * um; us += Dsm * um; ut += Dtm * um;
    vr += Drm * vm; vs += Dsm * vm; vt += Dtm * vm;
    wr += Drm * wm; ws += Dsm * wm; wt += Dtm * wm;
  }
  const dfloat *g = vgeo + e * p_Nvgeo;
  const dfloat drdx = g[0], drdy = g[1], drdz = g[2];
  const dfloat dsdx = g[3], dsdy = g[4], dsdz = g[5];
  const dfloat dtdx = g[6], dtdy = g[7], dtdz = g[8];
  const int base = e * p_Nfields * p_Np + n;
  rhs[base + 0 * p_Np] = -((drdx * ur + dsdx * us + dtdx * ut) +
                           (drdy * vr + dsdy * vs + dtdy * vt) +
                           (drdz * wr + dsdz * ws + dtdz * wt));
  rhs[base + 1 * p_Np] = -(drdx * pr + dsdx * ps + dtdx * pt);
  rhs[base + 2 * p_Np] = -(drdy * pr + dsdy * ps + dtdy * pt);
  rhs[base + 3 * p_Np] = -(drdz * pr + dsdz * ps + dtdz * pt);
}
