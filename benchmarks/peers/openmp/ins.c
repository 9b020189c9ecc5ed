/* Hand-written OpenMP peer of kernels/ins.okl: one explicit step of the 2-D incompressible
 * Navier-Stokes equations with artificial compressibility (lid-driven cavity, collocated
 * grid, central differences), written as plain C: rows split over the threads, the interior
 * of each row a branch-free unit-stride loop that gcc vectorises, the boundary ring apart.
 * ins_step: one step (called once per step, as okl's kernel is launched once per step);
 * ins_run: nsteps steps in one parallel region (ping-pong between two sets of arrays, the
 * first step reading the inputs), as one would write the whole solver in C.
 * Same data layout, scalars and defines (dfloat) as the OKL kernel. */
#ifndef dfloat
#define dfloat double
#endif

static inline void row(int nx, int y, dfloat dt, dfloat nu, dfloat dtb2, dfloat inv2h,
                       dfloat invh2, dfloat lid, const dfloat *restrict u,
                       const dfloat *restrict v, const dfloat *restrict p,
                       dfloat *restrict un, dfloat *restrict vn, dfloat *restrict pn,
                       int ny) {
  const long r = (long)y * nx;
  if (y == 0 || y == ny - 1) {
    const long ri = (long)(y == 0 ? 1 : ny - 2) * nx;
    const dfloat ub = y == ny - 1 ? lid : 0;
    for (int x = 0; x < nx; ++x) {
      const int xi = x < 1 ? 1 : (x > nx - 2 ? nx - 2 : x);
      un[r + x] = ub;
      vn[r + x] = 0;
      pn[r + x] = p[ri + xi];
    }
    return;
  }
  const dfloat *uc = u + r, *vc = v + r, *pc = p + r;
  const dfloat *uN = u + r + nx, *uS = u + r - nx, *vN = v + r + nx, *vS = v + r - nx;
  const dfloat *pN = p + r + nx, *pS = p + r - nx;
  dfloat *uo = un + r, *vo = vn + r, *po = pn + r;
#pragma omp simd
  for (int x = 1; x < nx - 1; ++x) {
    const dfloat ux = (uc[x + 1] - uc[x - 1]) * inv2h, uy = (uN[x] - uS[x]) * inv2h;
    const dfloat vx = (vc[x + 1] - vc[x - 1]) * inv2h, vy = (vN[x] - vS[x]) * inv2h;
    const dfloat px = (pc[x + 1] - pc[x - 1]) * inv2h, py = (pN[x] - pS[x]) * inv2h;
    const dfloat lapu = (uc[x + 1] + uc[x - 1] + uN[x] + uS[x] - 4 * uc[x]) * invh2;
    const dfloat lapv = (vc[x + 1] + vc[x - 1] + vN[x] + vS[x] - 4 * vc[x]) * invh2;
    uo[x] = uc[x] + dt * (nu * lapu - (uc[x] * ux + vc[x] * uy) - px);
    vo[x] = vc[x] + dt * (nu * lapv - (uc[x] * vx + vc[x] * vy) - py);
    po[x] = pc[x] - dtb2 * (ux + vy);
  }
  uo[0] = 0;
  vo[0] = 0;
  po[0] = pc[1];
  uo[nx - 1] = 0;
  vo[nx - 1] = 0;
  po[nx - 1] = pc[nx - 2];
}

void ins_step(int nx, int ny, dfloat dt, dfloat nu, dfloat dtb2, dfloat inv2h, dfloat invh2,
              dfloat lid, const dfloat *restrict u, const dfloat *restrict v,
              const dfloat *restrict p, dfloat *restrict un, dfloat *restrict vn,
              dfloat *restrict pn) {
#pragma omp parallel for schedule(static)
  for (int y = 0; y < ny; ++y)
    row(nx, y, dt, nu, dtb2, inv2h, invh2, lid, u, v, p, un, vn, pn, ny);
}

/* nsteps >= 1 steps from (u0, v0, p0): step s writes set A (s even) or set B (s odd) */
void ins_run(int nsteps, int nx, int ny, dfloat dt, dfloat nu, dfloat dtb2, dfloat inv2h,
             dfloat invh2, dfloat lid, const dfloat *u0, const dfloat *v0, const dfloat *p0,
             dfloat *uA, dfloat *vA, dfloat *pA, dfloat *uB, dfloat *vB, dfloat *pB) {
#pragma omp parallel
  {
    for (int s = 0; s < nsteps; ++s) {
      const dfloat *u = s == 0 ? u0 : (s % 2 ? uA : uB);
      const dfloat *v = s == 0 ? v0 : (s % 2 ? vA : vB);
      const dfloat *p = s == 0 ? p0 : (s % 2 ? pA : pB);
      dfloat *un = s % 2 ? uB : uA, *vn = s % 2 ? vB : vA, *pn = s % 2 ? pB : pA;
#pragma omp for schedule(static)
      for (int y = 0; y < ny; ++y)
        row(nx, y, dt, nu, dtb2, inv2h, invh2, lid, u, v, p, un, vn, pn, ny);
    }
  }
}
