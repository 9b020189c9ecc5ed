// Hand-written CUDA peer of kernels/edges.okl: one edge per thread, the same Rusanov flux,
// atomicAdd (FP64, native since sm_60) into both cells.
#ifndef dfloat
#define dfloat double
#endif
#ifndef p_GAMMA
#define p_GAMMA 1.4
#endif

extern "C" __global__ void res_calc(const int nedges, const int *__restrict__ ecell,
                                    const dfloat *__restrict__ enorm,
                                    const dfloat *__restrict__ q, dfloat *res) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= nedges) return;
  const int c1 = ecell[2 * e], c2 = ecell[2 * e + 1];
  const dfloat nx = enorm[2 * e], ny = enorm[2 * e + 1];
  const dfloat r1 = q[4 * c1], mu1 = q[4 * c1 + 1], mv1 = q[4 * c1 + 2], E1 = q[4 * c1 + 3];
  const dfloat r2 = q[4 * c2], mu2 = q[4 * c2 + 1], mv2 = q[4 * c2 + 2], E2 = q[4 * c2 + 3];
  const dfloat i1 = 1.0 / r1, i2 = 1.0 / r2;
  const dfloat p1 = (p_GAMMA - 1.0) * (E1 - 0.5 * (mu1 * mu1 + mv1 * mv1) * i1);
  const dfloat p2 = (p_GAMMA - 1.0) * (E2 - 0.5 * (mu2 * mu2 + mv2 * mv2) * i2);
  const dfloat vn1 = (mu1 * nx + mv1 * ny) * i1, vn2 = (mu2 * nx + mv2 * ny) * i2;
  const dfloat len = sqrt(nx * nx + ny * ny);
  const dfloat a1 = fabs(vn1) + len * sqrt(p_GAMMA * p1 * i1);
  const dfloat a2 = fabs(vn2) + len * sqrt(p_GAMMA * p2 * i2);
  const dfloat a = 0.5 * (a1 > a2 ? a1 : a2);
  const dfloat f0 = 0.5 * (r1 * vn1 + r2 * vn2) - a * (r2 - r1);
  const dfloat f1 = 0.5 * (mu1 * vn1 + p1 * nx + mu2 * vn2 + p2 * nx) - a * (mu2 - mu1);
  const dfloat f2 = 0.5 * (mv1 * vn1 + p1 * ny + mv2 * vn2 + p2 * ny) - a * (mv2 - mv1);
  const dfloat f3 = 0.5 * ((E1 + p1) * vn1 + (E2 + p2) * vn2) - a * (E2 - E1);
  atomicAdd(&res[4 * c1], f0);
  atomicAdd(&res[4 * c1 + 1], f1);
  atomicAdd(&res[4 * c1 + 2], f2);
  atomicAdd(&res[4 * c1 + 3], f3);
  atomicAdd(&res[4 * c2], -f0);
  atomicAdd(&res[4 * c2 + 1], -f1);
  atomicAdd(&res[4 * c2 + 2], -f2);
  atomicAdd(&res[4 * c2 + 3], -f3);
}
