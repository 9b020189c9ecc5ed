// Hand-written CUDA peer of kernels/airfoil.okl (OP2 Airfoil's five loops): one cell / edge
// per thread; res_calc / bres_calc with atomicAdd (FP64, native since sm_60) or, in the
// colour variants, plain increments over one colour's contiguous edge range; update reduces
// del^2 per block in shared memory and adds the block's sum with one atomicAdd.
// Defines: p_B, p_GAM, p_GM1, p_CFL, p_EPS, p_QINF0..3.
#ifndef p_B
#define p_B 256
#endif

// one row of q / res (4 doubles, 32-byte aligned: the arrays come from cudaMalloc)
struct __align__(32) d4 {
  double x, y, z, w;
};

__device__ __forceinline__ void flux(const int a, const int b, const int c1, const int c2,
                                     const double *__restrict__ x,
                                     const double *__restrict__ q,
                                     const double *__restrict__ adt, double f[4]) {
  const double dx = x[2 * a] - x[2 * b], dy = x[2 * a + 1] - x[2 * b + 1];
  const d4 q1 = reinterpret_cast<const d4 *>(q)[c1];  // 32-byte aligned rows
  const d4 q2 = reinterpret_cast<const d4 *>(q)[c2];
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

// boundary flux of cell c across edge (a, b); returns false for a wall (only f[1], f[2] set)
__device__ __forceinline__ bool bflux(const int a, const int b, const int c, const int bnd,
                                      const double *__restrict__ x,
                                      const double *__restrict__ q,
                                      const double *__restrict__ adt, double f[4]) {
  const double dx = x[2 * a] - x[2 * b], dy = x[2 * a + 1] - x[2 * b + 1];
  const d4 q1 = reinterpret_cast<const d4 *>(q)[c];
  const double ri1 = 1.0 / q1.x;
  const double p1 = p_GM1 * (q1.w - 0.5 * ri1 * (q1.y * q1.y + q1.z * q1.z));
  if (bnd == 1) {
    f[1] = p1 * dy;
    f[2] = -p1 * dx;
    return false;
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
  return true;
}

extern "C" __global__ void save_soln(const int ncell, const double *__restrict__ q,
                                     double *__restrict__ qold) {
  const int n = blockIdx.x * blockDim.x + threadIdx.x;
  if (n < 4 * ncell) qold[n] = q[n];
}

extern "C" __global__ void adt_calc(const int ncell, const int *__restrict__ cnode,
                                    const double *__restrict__ x,
                                    const double *__restrict__ q, double *__restrict__ adt) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= ncell) return;
  const int4 nd = reinterpret_cast<const int4 *>(cnode)[c];
  const double2 *xy = reinterpret_cast<const double2 *>(x);
  const double2 X[4] = {xy[nd.x], xy[nd.y], xy[nd.z], xy[nd.w]};
  const d4 qc = reinterpret_cast<const d4 *>(q)[c];
  const double ri = 1.0 / qc.x, u = ri * qc.y, v = ri * qc.z;
  const double cs = sqrt(p_GAM * p_GM1 * (ri * qc.w - 0.5 * (u * u + v * v)));
  double a = 0.0;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const double dx = X[(k + 1) & 3].x - X[k].x, dy = X[(k + 1) & 3].y - X[k].y;
    a += fabs(u * dy - v * dx) + cs * sqrt(dx * dx + dy * dy);
  }
  adt[c] = a / p_CFL;
}

extern "C" __global__ void res_calc_atomic(const int nedge, const int *__restrict__ enode,
                                           const int *__restrict__ ecell,
                                           const double *__restrict__ x,
                                           const double *__restrict__ q,
                                           const double *__restrict__ adt, double *res) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= nedge) return;
  const int c1 = ecell[2 * e], c2 = ecell[2 * e + 1];
  double f[4];
  flux(enode[2 * e], enode[2 * e + 1], c1, c2, x, q, adt, f);
#pragma unroll
  for (int v = 0; v < 4; ++v) {
    atomicAdd(&res[4 * c1 + v], f[v]);
    atomicAdd(&res[4 * c2 + v], -f[v]);
  }
}

extern "C" __global__ void res_calc_colour(const int start, const int end,
                                           const int *__restrict__ enode,
                                           const int *__restrict__ ecell,
                                           const double *__restrict__ x,
                                           const double *__restrict__ q,
                                           const double *__restrict__ adt,
                                           double *__restrict__ res) {
  const int e = start + blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= end) return;
  const int c1 = ecell[2 * e], c2 = ecell[2 * e + 1];
  double f[4];
  flux(enode[2 * e], enode[2 * e + 1], c1, c2, x, q, adt, f);
  d4 *r = reinterpret_cast<d4 *>(res);
  d4 r1 = r[c1], r2 = r[c2];
  r1.x += f[0]; r1.y += f[1]; r1.z += f[2]; r1.w += f[3];
  r2.x -= f[0]; r2.y -= f[1]; r2.z -= f[2]; r2.w -= f[3];
  r[c1] = r1;
  r[c2] = r2;
}

extern "C" __global__ void bres_calc_atomic(const int nbedge, const int *__restrict__ bnode,
                                            const int *__restrict__ bcell,
                                            const int *__restrict__ bound,
                                            const double *__restrict__ x,
                                            const double *__restrict__ q,
                                            const double *__restrict__ adt, double *res) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= nbedge) return;
  const int c = bcell[e];
  double f[4];
  if (bflux(bnode[2 * e], bnode[2 * e + 1], c, bound[e], x, q, adt, f)) {
    atomicAdd(&res[4 * c], f[0]);
    atomicAdd(&res[4 * c + 3], f[3]);
  }
  atomicAdd(&res[4 * c + 1], f[1]);
  atomicAdd(&res[4 * c + 2], f[2]);
}

extern "C" __global__ void bres_calc_colour(const int start, const int end,
                                            const int *__restrict__ bnode,
                                            const int *__restrict__ bcell,
                                            const int *__restrict__ bound,
                                            const double *__restrict__ x,
                                            const double *__restrict__ q,
                                            const double *__restrict__ adt,
                                            double *__restrict__ res) {
  const int e = start + blockIdx.x * blockDim.x + threadIdx.x;
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

extern "C" __global__ void update(const int ncell, const double *__restrict__ qold,
                                  double *__restrict__ q, double *__restrict__ res,
                                  const double *__restrict__ adt, double *rms) {
  __shared__ double s_r[p_B];
  const int t = threadIdx.x, c = blockIdx.x * p_B + t;
  double sum = 0.0;
  if (c < ncell) {
    const double adti = 1.0 / adt[c];
    const d4 r = reinterpret_cast<const d4 *>(res)[c];
    const d4 qo = reinterpret_cast<const d4 *>(qold)[c];
    const double d0 = adti * r.x, d1 = adti * r.y, d2 = adti * r.z, d3 = adti * r.w;
    reinterpret_cast<d4 *>(q)[c] = d4{qo.x - d0, qo.y - d1, qo.z - d2, qo.w - d3};
    reinterpret_cast<d4 *>(res)[c] = d4{0.0, 0.0, 0.0, 0.0};
    sum = d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3;
  }
  s_r[t] = sum;
  __syncthreads();
  for (int h = p_B / 2; h > 0; h >>= 1) {
    if (t < h) s_r[t] += s_r[t + h];
    __syncthreads();
  }
  if (t == 0) atomicAdd(rms, s_r[0]);
}

// Hierarchical colouring (see kernels/airfoil.okl): one block per edge block of one block
// colour; fluxes in registers, increments into shared rows of the block's distinct cells one
// edge colour at a time, then the staged rows added to res.
extern "C" __global__ void __launch_bounds__(p_B)
res_calc_hier(const int bstart, const int *__restrict__ enode, const int *__restrict__ ecell,
              const int *__restrict__ ecol, const int *__restrict__ eloc,
              const int *__restrict__ boff, const int *__restrict__ bcell,
              const int *__restrict__ bncol, const double *__restrict__ x,
              const double *__restrict__ q, const double *__restrict__ adt,
              double *__restrict__ res) {
  __shared__ double s_r[8 * p_B];
  const int blk = bstart + blockIdx.x, t = threadIdx.x, e = blk * p_B + t;
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
  __syncthreads();
  for (int c = 0; c < ncol; ++c) {
    if (col == c) {
#pragma unroll
      for (int v = 0; v < 4; ++v) {
        s_r[4 * l1 + v] += f[v];
        s_r[4 * l2 + v] -= f[v];
      }
    }
    __syncthreads();
  }
  for (int i = t; i < 4 * nc; i += p_B) res[4 * bcell[n0 + (i >> 2)] + (i & 3)] += s_r[i];
}

extern "C" __global__ void __launch_bounds__(p_B)
bres_calc_hier(const int bstart, const int *__restrict__ bnode, const int *__restrict__ bcell,
               const int *__restrict__ bound, const int *__restrict__ ecol,
               const int *__restrict__ eloc, const int *__restrict__ boff,
               const int *__restrict__ bcells, const int *__restrict__ bncol,
               const double *__restrict__ x, const double *__restrict__ q,
               const double *__restrict__ adt, double *__restrict__ res) {
  __shared__ double s_r[4 * p_B];
  const int blk = bstart + blockIdx.x, t = threadIdx.x, e = blk * p_B + t;
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
  __syncthreads();
  for (int c = 0; c < ncol; ++c) {
    if (col == c) {
#pragma unroll
      for (int v = 0; v < 4; ++v) s_r[4 * l1 + v] += f[v];
    }
    __syncthreads();
  }
  for (int i = t; i < 4 * nc; i += p_B) res[4 * bcells[n0 + (i >> 2)] + (i & 3)] += s_r[i];
}
