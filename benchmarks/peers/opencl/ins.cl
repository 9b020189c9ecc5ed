// Hand-written OpenCL peer of kernels/ins.okl: one explicit step of the 2-D incompressible
// Navier-Stokes equations with artificial compressibility (lid-driven cavity, collocated grid,
// central differences) as two kernels, the OKL kernel's algorithm: insInterior, one work-item
// per interior point in p_BX x p_BY work-groups (global size rounded up to whole groups), then
// insBoundary, one work-item per point of the boundary ring (groups of 256).
// Defines: dfloat (double needs cl_khr_fp64), p_BX, p_BY.
#ifndef dfloat
#define dfloat double
#endif
#ifndef p_BX
#define p_BX 64
#define p_BY 4
#endif
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

__kernel __attribute__((reqd_work_group_size(p_BX, p_BY, 1)))
void insInterior(const int nx, const int ny, const dfloat dt, const dfloat nu,
                 const dfloat dtb2, const dfloat inv2h, const dfloat invh2, const dfloat lid,
                 __global const dfloat *restrict u, __global const dfloat *restrict v,
                 __global const dfloat *restrict p, __global dfloat *restrict un,
                 __global dfloat *restrict vn, __global dfloat *restrict pn) {
  const int x = 1 + get_global_id(0), y = 1 + get_global_id(1);
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
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void insBoundary(const int nx, const int ny, const dfloat lid, __global const dfloat *restrict p,
                 __global dfloat *restrict un, __global dfloat *restrict vn,
                 __global dfloat *restrict pn) {
  const int i = get_global_id(0);
  if (i < 2 * nx) {
    const int x = i % nx, top = i >= nx;
    const int xi = min(max(x, 1), nx - 2);
    const int c = top ? (ny - 1) * nx + x : x;
    un[c] = top ? lid : (dfloat)0;
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
