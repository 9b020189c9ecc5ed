// Hand-written OpenCL peer of kernels/dgvolume.okl (linearized acoustics DG volume kernel on
// affine tetrahedra): p_NblockV elements per work-group, one work-item per (element, node), the
// element's four fields in local memory, the transposed D matrices read from global memory,
// twelve reference derivatives and the chain rule -- the OKL kernel's algorithm (the CUDA
// peer's code).  Defines: dfloat (double), p_Np, p_NblockV.
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
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

__kernel __attribute__((reqd_work_group_size(p_Np, p_NblockV, 1)))
void dgvolume(const int Nelements, __global const dfloat *restrict vgeo,
              __global const dfloat *restrict DT, __global const dfloat *restrict q,
              __global dfloat *restrict rhs) {
  __local dfloat s_q[p_NblockV][p_Nfields][p_Np];
  const int n = get_local_id(0), es = get_local_id(1);
  const int e = get_group_id(0) * p_NblockV + es;

  if (e < Nelements) {
#pragma unroll
    for (int f = 0; f < p_Nfields; ++f) s_q[es][f][n] = q[(e * p_Nfields + f) * p_Np + n];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (e >= Nelements) return;

  dfloat pr = 0, ps = 0, pt = 0, ur = 0, us = 0, ut = 0;
  dfloat vr = 0, vs = 0, vt = 0, wr = 0, ws = 0, wt = 0;
#pragma unroll 8
  for (int m = 0; m < p_Np; ++m) {
    const dfloat Drm = DT[m * p_Np + n];
    const dfloat Dsm = DT[p_Np * p_Np + m * p_Np + n];
    const dfloat Dtm = DT[2 * p_Np * p_Np + m * p_Np + n];
    const dfloat pm = s_q[es][0][m], um = s_q[es][1][m];
    const dfloat vm = s_q[es][2][m], wm = s_q[es][3][m];
    pr += Drm * pm; ps += Dsm * pm; pt += Dtm * pm;
    ur += Drm * um; us += Dsm * um; ut += Dtm * um;
    vr += Drm * vm; vs += Dsm * vm; vt += Dtm * vm;
    wr += Drm * wm; ws += Dsm * wm; wt += Dtm * wm;
  }
  __global const dfloat *g = vgeo + e * p_Nvgeo;
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
