// Hand-written CUDA peer of kernels/ins.okl: one explicit step of the 2-D incompressible
// Navier-Stokes equations with artificial compressibility (lid-driven cavity, collocated grid,
// central differences) as two kernels, the OKL kernel's algorithm: insInterior, one thread
// per interior point in p_BX x p_BY blocks, neighbours read through the read-only path
// (const __restrict__), then insBoundary, one thread per point of the boundary ring.
// Defines: dfloat, p_BX, p_BY (the interior kernel is launched with that block).
#ifndef dfloat
#define dfloat double
#endif
#ifndef p_BX
#define p_BX 64
#endif
#ifndef p_BY
#define p_BY 4
#endif

extern "C" __global__ void __launch_bounds__(p_BX * p_BY)
insInterior(const int nx, const int ny, const dfloat dt, const dfloat nu, const dfloat dtb2,
            const dfloat inv2h, const dfloat invh2, const dfloat lid,
            const dfloat *__restrict__ u, const dfloat *__restrict__ v,
            const dfloat *__restrict__ p, dfloat *__restrict__ un, dfloat *__restrict__ vn,
            dfloat *__restrict__ pn) {
  const int x = 1 + blockIdx.x * p_BX + threadIdx.x;
  const int y = 1 + blockIdx.y * p_BY + threadIdx.y;
  if (x >= nx - 1 || y >= ny - 1) return;
  const int c = y * nx + x;
  const dfloat uc = u[c], vc = v[c];
  const dfloat uE = u[c + 1], uW = u[c - 1], uN = u[c + nx], uS = u[c - nx];
  const dfloat vE = v[c + 1], vW = v[c - 1], vN = v[c + nx], vS = v[c - nx];
  const dfloat ux = (uE - uW) * inv2h, uy = (uN - uS) * inv2h;
  const dfloat vx = (vE - vW) * inv2h, vy = (vN - vS) * inv2h;
  const dfloat px = (p[c + 1] - p[c - 1]) * inv2h, py = (p[c + nx] - p[c - nx]) * inv2h;
  const dfloat lapu = (uE + uW + uN + uS - 4 * uc) * invh2;
  const dfloat lapv = (vE + vW + vN + vS - 4 * vc) * invh2;
  un[c] = uc + dt * (nu * lapu - (uc * ux + vc * uy) - px);
  vn[c] = vc + dt * (nu * lapv - (uc * vx + vc * vy) - py);
  pn[c] = p[c] - dtb2 * (ux + vy);
}

// i < 2 nx: bottom row then top row; then left and right columns without the corners
extern "C" __global__ void __launch_bounds__(256)
insBoundary(const int nx, const int ny, const dfloat lid, const dfloat *__restrict__ p,
            dfloat *__restrict__ un, dfloat *__restrict__ vn, dfloat *__restrict__ pn) {
  const int i = blockIdx.x * 256 + threadIdx.x;
  if (i < 2 * nx) {
    const int x = i % nx, top = i >= nx;
    const int xi = min(max(x, 1), nx - 2);
    const int c = top ? (ny - 1) * nx + x : x;
    un[c] = top ? lid : dfloat(0);
    vn[c] = 0;
    pn[c] = p[(top ? ny - 2 : 1) * nx + xi];
  } else if (i < 2 * nx + 2 * ny) {
    const int j = i - 2 * nx, y = j % ny, right = j >= ny;
    if (y > 0 && y < ny - 1) {
      const int c = y * nx + (right ? nx - 1 : 0);
      un[c] = 0;
      vn[c] = 0;
      pn[c] = p[c + (right ? -1 : 1)];
    }
  }
}
