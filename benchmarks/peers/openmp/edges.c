/* Hand-written OpenMP peer of kernels/edges.okl (res_calc-like indirect increment): the same
 * Rusanov flux per edge, added to both cells with `omp atomic`. */
#include <math.h>
#ifndef dfloat
#define dfloat double
#endif
#ifndef p_GAMMA
#define p_GAMMA 1.4
#endif

void res_calc(int nedges, const int *restrict ecell, const dfloat *restrict enorm,
              const dfloat *restrict q, dfloat *restrict res) {
#pragma omp parallel for
  for (int e = 0; e < nedges; ++e) {
    const int c1 = ecell[2 * e], c2 = ecell[2 * e + 1];
    const dfloat nx = enorm[2 * e], ny = enorm[2 * e + 1];
    const dfloat *q1 = q + 4 * c1, *q2 = q + 4 * c2;
    const dfloat i1 = 1.0 / q1[0], i2 = 1.0 / q2[0];
    const dfloat p1 = (p_GAMMA - 1.0) * (q1[3] - 0.5 * (q1[1] * q1[1] + q1[2] * q1[2]) * i1);
    const dfloat p2 = (p_GAMMA - 1.0) * (q2[3] - 0.5 * (q2[1] * q2[1] + q2[2] * q2[2]) * i2);
    const dfloat vn1 = (q1[1] * nx + q1[2] * ny) * i1, vn2 = (q2[1] * nx + q2[2] * ny) * i2;
    const dfloat len = sqrt(nx * nx + ny * ny);
    const dfloat a1 = fabs(vn1) + len * sqrt(p_GAMMA * p1 * i1);
    const dfloat a2 = fabs(vn2) + len * sqrt(p_GAMMA * p2 * i2);
    const dfloat a = 0.5 * (a1 > a2 ? a1 : a2);
    const dfloat f[4] = {
        0.5 * (q1[0] * vn1 + q2[0] * vn2) - a * (q2[0] - q1[0]),
        0.5 * (q1[1] * vn1 + p1 * nx + q2[1] * vn2 + p2 * nx) - a * (q2[1] - q1[1]),
        0.5 * (q1[2] * vn1 + p1 * ny + q2[2] * vn2 + p2 * ny) - a * (q2[2] - q1[2]),
        0.5 * ((q1[3] + p1) * vn1 + (q2[3] + p2) * vn2) - a * (q2[3] - q1[3])};
    for (int v = 0; v < 4; ++v) {
#pragma omp atomic
      res[4 * c1 + v] += f[v];
#pragma omp atomic
      res[4 * c2 + v] -= f[v];
    }
  }
}
