/* Hand-written OpenMP peer of kernels/airfoil.okl (OP2 Airfoil's five loops), plain C as one
 * would write it: `omp parallel for` over cells / edges; res_calc / bres_calc either with
 * `omp atomic` increments or, in the colour variants, over one colour's contiguous edge range
 * (no two edges of a colour share a cell: plain increments); update with an OpenMP
 * reduction into *rms.  Defines: p_GAM, p_GM1, p_CFL, p_EPS, p_QINF0..3. */
#include <math.h>

static inline void flux(const int a, const int b, const int c1, const int c2,
                        const double *restrict x, const double *restrict q,
                        const double *restrict adt, double f[4]) {
  const double dx = x[2 * a] - x[2 * b], dy = x[2 * a + 1] - x[2 * b + 1];
  const double *q1 = q + 4 * c1, *q2 = q + 4 * c2;
  const double ri1 = 1.0 / q1[0], ri2 = 1.0 / q2[0];
  const double p1 = p_GM1 * (q1[3] - 0.5 * ri1 * (q1[1] * q1[1] + q1[2] * q1[2]));
  const double p2 = p_GM1 * (q2[3] - 0.5 * ri2 * (q2[1] * q2[1] + q2[2] * q2[2]));
  const double vol1 = ri1 * (q1[1] * dy - q1[2] * dx), vol2 = ri2 * (q2[1] * dy - q2[2] * dx);
  const double mu = 0.5 * (adt[c1] + adt[c2]) * p_EPS;
  f[0] = 0.5 * (vol1 * q1[0] + vol2 * q2[0]) + mu * (q1[0] - q2[0]);
  f[1] = 0.5 * (vol1 * q1[1] + p1 * dy + vol2 * q2[1] + p2 * dy) + mu * (q1[1] - q2[1]);
  f[2] = 0.5 * (vol1 * q1[2] - p1 * dx + vol2 * q2[2] - p2 * dx) + mu * (q1[2] - q2[2]);
  f[3] = 0.5 * (vol1 * (q1[3] + p1) + vol2 * (q2[3] + p2)) + mu * (q1[3] - q2[3]);
}

/* boundary flux of cell c across edge (a, b); 0 for a wall (only f[1], f[2] set) */
static inline int bflux(const int a, const int b, const int c, const int bnd,
                        const double *restrict x, const double *restrict q,
                        const double *restrict adt, double f[4]) {
  const double dx = x[2 * a] - x[2 * b], dy = x[2 * a + 1] - x[2 * b + 1];
  const double *q1 = q + 4 * c;
  const double ri1 = 1.0 / q1[0];
  const double p1 = p_GM1 * (q1[3] - 0.5 * ri1 * (q1[1] * q1[1] + q1[2] * q1[2]));
  if (bnd == 1) {
    f[1] = p1 * dy;
    f[2] = -p1 * dx;
    return 0;
  }
  const double vol1 = ri1 * (q1[1] * dy - q1[2] * dx);
  const double ri2 = 1.0 / p_QINF0;
  const double p2 = p_GM1 * (p_QINF3 - 0.5 * ri2 * (p_QINF1 * p_QINF1 + p_QINF2 * p_QINF2));
  const double vol2 = ri2 * (p_QINF1 * dy - p_QINF2 * dx);
  const double mu = adt[c] * p_EPS;
  f[0] = 0.5 * (vol1 * q1[0] + vol2 * p_QINF0) + mu * (q1[0] - p_QINF0);
  f[1] = 0.5 * (vol1 * q1[1] + p1 * dy + vol2 * p_QINF1 + p2 * dy) + mu * (q1[1] - p_QINF1);
  f[2] = 0.5 * (vol1 * q1[2] - p1 * dx + vol2 * p_QINF2 - p2 * dx) + mu * (q1[2] - p_QINF2);
  f[3] = 0.5 * (vol1 * (q1[3] + p1) + vol2 * (p_QINF3 + p2)) + mu * (q1[3] - p_QINF3);
  return 1;
}

void save_soln(int ncell, const double *restrict q, double *restrict qold) {
#pragma omp parallel for simd
  for (int n = 0; n < 4 * ncell; ++n) qold[n] = q[n];
}

void adt_calc(int ncell, const int *restrict cnode, const double *restrict x,
              const double *restrict q, double *restrict adt) {
#pragma omp parallel for
  for (int c = 0; c < ncell; ++c) {
    const int *nd = cnode + 4 * c;
    const double *qc = q + 4 * c;
    const double ri = 1.0 / qc[0], u = ri * qc[1], v = ri * qc[2];
    const double cs = sqrt(p_GAM * p_GM1 * (ri * qc[3] - 0.5 * (u * u + v * v)));
    double a = 0.0;
    for (int k = 0; k < 4; ++k) {
      const int m = nd[k], n = nd[(k + 1) & 3];
      const double dx = x[2 * n] - x[2 * m], dy = x[2 * n + 1] - x[2 * m + 1];
      a += fabs(u * dy - v * dx) + cs * sqrt(dx * dx + dy * dy);
    }
    adt[c] = a / p_CFL;
  }
}

void res_calc_atomic(int nedge, const int *restrict enode, const int *restrict ecell,
                     const double *restrict x, const double *restrict q,
                     const double *restrict adt, double *res) {
#pragma omp parallel for
  for (int e = 0; e < nedge; ++e) {
    const int c1 = ecell[2 * e], c2 = ecell[2 * e + 1];
    double f[4];
    flux(enode[2 * e], enode[2 * e + 1], c1, c2, x, q, adt, f);
    for (int v = 0; v < 4; ++v) {
#pragma omp atomic
      res[4 * c1 + v] += f[v];
#pragma omp atomic
      res[4 * c2 + v] -= f[v];
    }
  }
}

void res_calc_colour(int start, int end, const int *restrict enode, const int *restrict ecell,
                     const double *restrict x, const double *restrict q,
                     const double *restrict adt, double *restrict res) {
#pragma omp parallel for
  for (int e = start; e < end; ++e) {
    const int c1 = ecell[2 * e], c2 = ecell[2 * e + 1];
    double f[4];
    flux(enode[2 * e], enode[2 * e + 1], c1, c2, x, q, adt, f);
    for (int v = 0; v < 4; ++v) {
      res[4 * c1 + v] += f[v];
      res[4 * c2 + v] -= f[v];
    }
  }
}

void bres_calc_atomic(int nbedge, const int *restrict bnode, const int *restrict bcell,
                      const int *restrict bound, const double *restrict x,
                      const double *restrict q, const double *restrict adt, double *res) {
#pragma omp parallel for
  for (int e = 0; e < nbedge; ++e) {
    const int c = bcell[e];
    double f[4];
    if (bflux(bnode[2 * e], bnode[2 * e + 1], c, bound[e], x, q, adt, f)) {
#pragma omp atomic
      res[4 * c] += f[0];
#pragma omp atomic
      res[4 * c + 3] += f[3];
    }
#pragma omp atomic
    res[4 * c + 1] += f[1];
#pragma omp atomic
    res[4 * c + 2] += f[2];
  }
}

void bres_calc_colour(int start, int end, const int *restrict bnode, const int *restrict bcell,
                      const int *restrict bound, const double *restrict x,
                      const double *restrict q, const double *restrict adt,
                      double *restrict res) {
#pragma omp parallel for
  for (int e = start; e < end; ++e) {
    const int c = bcell[e];
    double f[4];
    if (bflux(bnode[2 * e], bnode[2 * e + 1], c, bound[e], x, q, adt, f)) {
      res[4 * c] += f[0];
      res[4 * c + 3] += f[3];
    }
    res[4 * c + 1] += f[1];
    res[4 * c + 2] += f[2];
  }
}

void update(int ncell, const double *restrict qold, double *restrict q, double *restrict res,
            const double *restrict adt, double *restrict rms) {
  double sum = 0.0;
#pragma omp parallel for reduction(+ : sum)
  for (int c = 0; c < ncell; ++c) {
    const double adti = 1.0 / adt[c];
    for (int n = 0; n < 4; ++n) {
      const double del = adti * res[4 * c + n];
      q[4 * c + n] = qold[4 * c + n] - del;
      res[4 * c + n] = 0.0;
      sum += del * del;
    }
  }
  *rms += sum;
}

/* Hierarchical colouring as OP2's OpenMP back end runs it: the blocks of one block colour
 * share no cell and run in parallel, one thread per block, each block's edges in order with
 * plain increments (a CPU thread needs neither staging nor the edge colours).  Padding slots
 * have colour -1.  B: slots per block. */
void res_calc_hier(int bstart, int bend, int B, const int *restrict enode,
                   const int *restrict ecell, const int *restrict ecol,
                   const double *restrict x, const double *restrict q,
                   const double *restrict adt, double *restrict res) {
#pragma omp parallel for schedule(static, 1)
  for (int blk = bstart; blk < bend; ++blk) {
    for (int e = blk * B; e < blk * B + B; ++e) {
      if (ecol[e] < 0) continue;
      const int c1 = ecell[2 * e], c2 = ecell[2 * e + 1];
      double f[4];
      flux(enode[2 * e], enode[2 * e + 1], c1, c2, x, q, adt, f);
      for (int v = 0; v < 4; ++v) {
        res[4 * c1 + v] += f[v];
        res[4 * c2 + v] -= f[v];
      }
    }
  }
}

void bres_calc_hier(int bstart, int bend, int B, const int *restrict bnode,
                    const int *restrict bcell, const int *restrict bound,
                    const int *restrict ecol, const double *restrict x,
                    const double *restrict q, const double *restrict adt,
                    double *restrict res) {
#pragma omp parallel for schedule(static, 1)
  for (int blk = bstart; blk < bend; ++blk) {
    for (int e = blk * B; e < blk * B + B; ++e) {
      if (ecol[e] < 0) continue;
      const int c = bcell[e];
      double f[4];
      if (bflux(bnode[2 * e], bnode[2 * e + 1], c, bound[e], x, q, adt, f)) {
        res[4 * c] += f[0];
        res[4 * c + 3] += f[3];
      }
      res[4 * c + 1] += f[1];
      res[4 * c + 2] += f[2];
    }
  }
}
