// Hand-written OpenCL peer of kernels/airfoil.okl (OP2 Airfoil's five loops), the CUDA peer's
// algorithm in OpenCL C 1.2: one cell / edge per work-item; res_calc / bres_calc with FP64
// atomic increments (a 64-bit compare-and-swap loop, cl_khr_int64_base_atomics; NVIDIA's
// PTX reduction on NVIDIA's OpenCL, as in edges.cl) or, in the colour variants, plain
// increments over one colour's contiguous edge range; update reduces del^2 per work-group in
// local memory and adds the group's sum atomically.
// Defines: p_B, p_GAM, p_GM1, p_CFL, p_EPS, p_QINF0..3.
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
    expected = seen;
  }
#endif
}

inline void flux(const int a, const int b, const int c1, const int c2,
                 __global const double *restrict x, __global const double *restrict q,
                 __global const double *restrict adt, double *f) {
  const double dx = x[2 * a] - x[2 * b], dy = x[2 * a + 1] - x[2 * b + 1];
  const double4 q1 = vload4(c1, q), q2 = vload4(c2, q);
  const double ri1 = 1.0 / q1.x, ri2 = 1.0 / q2.x;
  const double p1 = p_GM1 * (q1.w - 0.5 * ri1 * (q1.y * q1.y + q1.z * q1.z));
  const double p2 = p_GM1 * (q2.w - 0.5 * ri2 * (q2.y * q2.y + q2.z * q2.z));
  const double vol1 = ri1 * (q1.y * dy - q1.z * dx), vol2 = ri2 * (q2.y * dy - q2.z * dx);
  const double mu = 0.5 * (adt[c1] + adt[c2]) * p_EPS;
  f[0] = 0.5 * (vol1 * q1.x + vol2 * q2.x) + mu * (q1.x - q2.x);
  f[1] = 0.5 * (vol1 * q1.y + p1 * dy + vol2 * q2.y + p2 * dy) + mu * (q1.y - q2.y);
  f[2] = 0.5 * (vol1 * q1.z - p1 * dx + vol2 * q2.z - p2 * dx) + mu * (q1.z - q2.z);
  f[3] = 0.5 * (vol1 * (q1.w + p1) + vol2 * (q2.w + p2)) + mu * (q1.w - q2.w);
}

inline int bflux(const int a, const int b, const int c, const int bnd,
                 __global const double *restrict x, __global const double *restrict q,
                 __global const double *restrict adt, double *f) {
  const double dx = x[2 * a] - x[2 * b], dy = x[2 * a + 1] - x[2 * b + 1];
  const double4 q1 = vload4(c, q);
  const double ri1 = 1.0 / q1.x;
  const double p1 = p_GM1 * (q1.w - 0.5 * ri1 * (q1.y * q1.y + q1.z * q1.z));
  if (bnd == 1) {
    f[1] = p1 * dy;
    f[2] = -p1 * dx;
    return 0;
  }
  const double vol1 = ri1 * (q1.y * dy - q1.z * dx);
  const double ri2 = 1.0 / p_QINF0;
  const double p2 = p_GM1 * (p_QINF3 - 0.5 * ri2 * (p_QINF1 * p_QINF1 + p_QINF2 * p_QINF2));
  const double vol2 = ri2 * (p_QINF1 * dy - p_QINF2 * dx);
  const double mu = adt[c] * p_EPS;
  f[0] = 0.5 * (vol1 * q1.x + vol2 * p_QINF0) + mu * (q1.x - p_QINF0);
  f[1] = 0.5 * (vol1 * q1.y + p1 * dy + vol2 * p_QINF1 + p2 * dy) + mu * (q1.y - p_QINF1);
  f[2] = 0.5 * (vol1 * q1.z - p1 * dx + vol2 * p_QINF2 - p2 * dx) + mu * (q1.z - p_QINF2);
  f[3] = 0.5 * (vol1 * (q1.w + p1) + vol2 * (p_QINF3 + p2)) + mu * (q1.w - p_QINF3);
  return 1;
}

__kernel __attribute__((reqd_work_group_size(p_B, 1, 1)))
void save_soln(const int ncell, __global const double *restrict q,
               __global double *restrict qold) {
  const int n = get_global_id(0);
  if (n < 4 * ncell) qold[n] = q[n];
}

__kernel __attribute__((reqd_work_group_size(p_B, 1, 1)))
void adt_calc(const int ncell, __global const int *restrict cnode,
              __global const double *restrict x, __global const double *restrict q,
              __global double *restrict adt) {
  const int c = get_global_id(0);
  if (c >= ncell) return;
  const int4 nd = vload4(c, cnode);
  const double2 X[4] = {vload2(nd.x, x), vload2(nd.y, x), vload2(nd.z, x), vload2(nd.w, x)};
  const double4 qc = vload4(c, q);
  const double ri = 1.0 / qc.x, u = ri * qc.y, v = ri * qc.z;
  const double cs = sqrt(p_GAM * p_GM1 * (ri * qc.w - 0.5 * (u * u + v * v)));
  double a = 0.0;
  for (int k = 0; k < 4; ++k) {
    const double dx = X[(k + 1) & 3].x - X[k].x, dy = X[(k + 1) & 3].y - X[k].y;
    a += fabs(u * dy - v * dx) + cs * sqrt(dx * dx + dy * dy);
  }
  adt[c] = a / p_CFL;
}

__kernel __attribute__((reqd_work_group_size(p_B, 1, 1)))
void res_calc_atomic(const int nedge, __global const int *restrict enode,
                     __global const int *restrict ecell, __global const double *restrict x,
                     __global const double *restrict q, __global const double *restrict adt,
                     __global double *res) {
  const int e = get_global_id(0);
  if (e >= nedge) return;
  const int c1 = ecell[2 * e], c2 = ecell[2 * e + 1];
  double f[4];
  flux(enode[2 * e], enode[2 * e + 1], c1, c2, x, q, adt, f);
  for (int v = 0; v < 4; ++v) {
    atomic_add_f64(&res[4 * c1 + v], f[v]);
    atomic_add_f64(&res[4 * c2 + v], -f[v]);
  }
}

__kernel __attribute__((reqd_work_group_size(p_B, 1, 1)))
void res_calc_colour(const int start, const int end, __global const int *restrict enode,
                     __global const int *restrict ecell, __global const double *restrict x,
                     __global const double *restrict q, __global const double *restrict adt,
                     __global double *restrict res) {
  const int e = start + get_global_id(0);
  if (e >= end) return;
  const int c1 = ecell[2 * e], c2 = ecell[2 * e + 1];
  double f[4];
  flux(enode[2 * e], enode[2 * e + 1], c1, c2, x, q, adt, f);
  const double4 fv = (double4)(f[0], f[1], f[2], f[3]);
  vstore4(vload4(c1, res) + fv, c1, res);
  vstore4(vload4(c2, res) - fv, c2, res);
}

__kernel __attribute__((reqd_work_group_size(p_B, 1, 1)))
void bres_calc_atomic(const int nbedge, __global const int *restrict bnode,
                      __global const int *restrict bcell, __global const int *restrict bound,
                      __global const double *restrict x, __global const double *restrict q,
                      __global const double *restrict adt, __global double *res) {
  const int e = get_global_id(0);
  if (e >= nbedge) return;
  const int c = bcell[e];
  double f[4];
  if (bflux(bnode[2 * e], bnode[2 * e + 1], c, bound[e], x, q, adt, f)) {
    atomic_add_f64(&res[4 * c], f[0]);
    atomic_add_f64(&res[4 * c + 3], f[3]);
  }
  atomic_add_f64(&res[4 * c + 1], f[1]);
  atomic_add_f64(&res[4 * c + 2], f[2]);
}

__kernel __attribute__((reqd_work_group_size(p_B, 1, 1)))
void bres_calc_colour(const int start, const int end, __global const int *restrict bnode,
                      __global const int *restrict bcell, __global const int *restrict bound,
                      __global const double *restrict x, __global const double *restrict q,
                      __global const double *restrict adt, __global double *restrict res) {
  const int e = start + get_global_id(0);
  if (e >= end) return;
  const int c = bcell[e];
  double f[4];
  if (bflux(bnode[2 * e], bnode[2 * e + 1], c, bound[e], x, q, adt, f)) {
    res[4 * c] += f[0];
    res[4 * c + 3] += f[3];
  }
  res[4 * c + 1] += f[1];
  res[4 * c + 2] += f[2];
}

__kernel __attribute__((reqd_work_group_size(p_B, 1, 1)))
void update(const int ncell, __global const double *restrict qold, __global double *restrict q,
            __global double *restrict res, __global const double *restrict adt,
            __global double *rms) {
  __local double s_r[p_B];
  const int t = get_local_id(0), c = get_global_id(0);
  double sum = 0.0;
  if (c < ncell) {
    const double adti = 1.0 / adt[c];
    const double4 d = adti * vload4(c, res);
    vstore4(vload4(c, qold) - d, c, q);
    vstore4((double4)(0.0), c, res);
    sum = d.x * d.x + d.y * d.y + d.z * d.z + d.w * d.w;
  }
  s_r[t] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int h = p_B / 2; h > 0; h >>= 1) {
    if (t < h) s_r[t] += s_r[t + h];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0) atomic_add_f64(rms, s_r[0]);
}

// Hierarchical colouring (see kernels/airfoil.okl): one work-group per edge block of one
// block colour; increments into local-memory rows of the block's distinct cells one edge
// colour at a time, then the staged rows added to res.
__kernel __attribute__((reqd_work_group_size(p_B, 1, 1)))
void res_calc_hier(const int bstart, __global const int *restrict enode,
                   __global const int *restrict ecell, __global const int *restrict ecol,
                   __global const int *restrict eloc, __global const int *restrict boff,
                   __global const int *restrict bcell, __global const int *restrict bncol,
                   __global const double *restrict x, __global const double *restrict q,
                   __global const double *restrict adt, __global double *restrict res) {
  __local double s_r[8 * p_B];
  const int blk = bstart + get_group_id(0), t = get_local_id(0), e = blk * p_B + t;
  const int n0 = boff[blk], nc = boff[blk + 1] - n0, ncol = bncol[blk];
  for (int i = t; i < 4 * nc; i += p_B) s_r[i] = 0.0;
  const int col = ecol[e];
  double f[4];
  int l1 = 0, l2 = 0;
  if (col >= 0) {
    flux(enode[2 * e], enode[2 * e + 1], ecell[2 * e], ecell[2 * e + 1], x, q, adt, f);
    l1 = eloc[2 * e];
    l2 = eloc[2 * e + 1];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int c = 0; c < ncol; ++c) {
    if (col == c) {
      for (int v = 0; v < 4; ++v) {
        s_r[4 * l1 + v] += f[v];
        s_r[4 * l2 + v] -= f[v];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int i = t; i < 4 * nc; i += p_B) res[4 * bcell[n0 + (i >> 2)] + (i & 3)] += s_r[i];
}

__kernel __attribute__((reqd_work_group_size(p_B, 1, 1)))
void bres_calc_hier(const int bstart, __global const int *restrict bnode,
                    __global const int *restrict bcell, __global const int *restrict bound,
                    __global const int *restrict ecol, __global const int *restrict eloc,
                    __global const int *restrict boff, __global const int *restrict bcells,
                    __global const int *restrict bncol, __global const double *restrict x,
                    __global const double *restrict q, __global const double *restrict adt,
                    __global double *restrict res) {
  __local double s_r[4 * p_B];
  const int blk = bstart + get_group_id(0), t = get_local_id(0), e = blk * p_B + t;
  const int n0 = boff[blk], nc = boff[blk + 1] - n0, ncol = bncol[blk];
  for (int i = t; i < 4 * nc; i += p_B) s_r[i] = 0.0;
  const int col = ecol[e];
  double f[4] = {0.0, 0.0, 0.0, 0.0};
  int l1 = 0;
  if (col >= 0) {
    if (!bflux(bnode[2 * e], bnode[2 * e + 1], bcell[e], bound[e], x, q, adt, f)) {
      f[0] = 0.0;
      f[3] = 0.0;
    }
    l1 = eloc[e];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int c = 0; c < ncol; ++c) {
    if (col == c) {
      for (int v = 0; v < 4; ++v) s_r[4 * l1 + v] += f[v];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int i = t; i < 4 * nc; i += p_B) res[4 * bcells[n0 + (i >> 2)] + (i & 3)] += s_r[i];
}
