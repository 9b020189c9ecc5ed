// Hand-written OpenCL peer of kernels/edges.okl: one edge per work-item, the same Rusanov
// flux, atomic FP64 increments of both cells.  OpenCL 1.2 has no atomic add on double: a
// 64-bit compare-and-swap loop on the bits (cl_khr_int64_base_atomics; the host skips this
// peer on a device without it) stands in -- on NVIDIA's OpenCL, detected by its
// cl_nv_pragma_unroll macro, the PTX reduction.  Defines: p_B, p_GAMMA.
#ifndef p_B
#define p_B 256
#endif
#ifndef p_GAMMA
#define p_GAMMA 1.4
#endif
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

inline void atomic_add_f64(volatile __global double *p, const double v) {
#if defined(cl_nv_pragma_unroll)
  asm volatile("red.global.add.f64 [%0], %1;" :: "l"(p), "d"(v) : "memory");
#else
  ulong expected = as_ulong(*p);
  for (;;) {
    const ulong seen = atom_cmpxchg((volatile __global ulong *)p, expected,
                                    as_ulong(as_double(expected) + v));
    if (seen == expected) break;
    expected = seen;  // another work-item updated the cell: retry on its value
  }
#endif
}

__kernel __attribute__((reqd_work_group_size(p_B, 1, 1)))
void res_calc(const int nedges, __global const int *restrict ecell,
              __global const double *restrict enorm, __global const double *restrict q,
              __global double *res) {
  const int e = get_global_id(0);
  if (e >= nedges) return;
  const int c1 = ecell[2 * e], c2 = ecell[2 * e + 1];
  const double nx = enorm[2 * e], ny = enorm[2 * e + 1];
  const double r1 = q[4 * c1], mu1 = q[4 * c1 + 1], mv1 = q[4 * c1 + 2], E1 = q[4 * c1 + 3];
  const double r2 = q[4 * c2], mu2 = q[4 * c2 + 1], mv2 = q[4 * c2 + 2], E2 = q[4 * c2 + 3];
  const double i1 = 1.0 / r1, i2 = 1.0 / r2;
  const double p1 = (p_GAMMA - 1.0) * (E1 - 0.5 * (mu1 * mu1 + mv1 * mv1) * i1);
  const double p2 = (p_GAMMA - 1.0) * (E2 - 0.5 * (mu2 * mu2 + mv2 * mv2) * i2);
  const double vn1 = (mu1 * nx + mv1 * ny) * i1, vn2 = (mu2 * nx + mv2 * ny) * i2;
  const double len = sqrt(nx * nx + ny * ny);
  const double a1 = fabs(vn1) + len * sqrt(p_GAMMA * p1 * i1);
  const double a2 = fabs(vn2) + len * sqrt(p_GAMMA * p2 * i2);
  const double a = 0.5 * (a1 > a2 ? a1 : a2);
  const double f0 = 0.5 * (r1 * vn1 + r2 * vn2) - a * (r2 - r1);
  const double f1 = 0.5 * (mu1 * vn1 + p1 * nx + mu2 * vn2 + p2 * nx) - a * (mu2 - mu1);
  const double f2 = 0.5 * (mv1 * vn1 + p1 * ny + mv2 * vn2 + p2 * ny) - a * (mv2 - mv1);
  const double f3 = 0.5 * ((E1 + p1) * vn1 + (E2 + p2) * vn2) - a * (E2 - E1);
  volatile __global double *o1 = res + 4 * c1, *o2 = res + 4 * c2;
  atomic_add_f64(o1, f0);
  atomic_add_f64(o1 + 1, f1);
  atomic_add_f64(o1 + 2, f2);
  atomic_add_f64(o1 + 3, f3);
  atomic_add_f64(o2, -f0);
  atomic_add_f64(o2 + 1, -f1);
  atomic_add_f64(o2 + 2, -f2);
  atomic_add_f64(o2 + 3, -f3);
}
