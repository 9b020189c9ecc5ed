"""DG volume kernel of the linearized acoustics equations on affine tetrahedra, in the style of
libParanumal's acoustics solver: FP64, N = 5 (Np = 56 nodes), four fields (p, u, v, w),
~400k elements on a GPU (100k on multi-threaded CPU implementations, 25k single-threaded).

    rhs_p = -(du/dx + dv/dy + dw/dz),  rhs_u = -dp/dx,  rhs_v = -dp/dy,  rhs_w = -dp/dz,
    d/dx = drdx d/dr + dsdx d/ds + dtdx d/dt (constant geometric factors per element).

GFLOP/s uses the count 12 reference derivatives (d/dr, d/ds, d/dt of each of the 4 fields)
x 2 Np flops per node = 24 Np^2 per element; the chain rule, sums and signs (36 per node) are
not counted.  Bytes per element (minimum): q 32 Np + rhs 32 Np + vgeo 72.
"""

from __future__ import annotations

import ctypes

import numpy as np

from .common import (
    Config,
    Context,
    P,
    c_peer,
    cfunc,
    cl_kernels,
    cuda_peer,
    log,
    measure,
    okl_kernel,
    ptr,
    random_array,
    round_up,
)

N = 5
NP = (N + 1) * (N + 2) * (N + 3) // 6  # 56
NBLOCKV = 4                              # elements per @outer iteration / CUDA block
GPU_ELEMENTS = 400_000
CPU_ELEMENTS = 100_000
SERIAL_ELEMENTS = 25_000  # single-threaded implementations (okl serial, 1-thread C, numpy)


def flops_per_element(np_: int) -> int:
    return 24 * np_ * np_


def bytes_per_element(np_: int) -> int:
    return 64 * np_ + 72


def elements(ctx: Context, impl) -> int:
    if ctx.quick:
        return 5  # not a multiple of NBLOCKV: the partial last block is exercised
    if impl.device == "gpu":
        return GPU_ELEMENTS
    single = impl.mode == "serial" or impl.threads == 1 or impl.name == "numpy"
    return SERIAL_ELEMENTS if single else CPU_ELEMENTS


def reference(xp, H, np_: int):
    q, DT, g = H["q"], H["DT"].reshape(3, np_, np_), H["vgeo"]
    E = q.size // (4 * np_)
    q2 = q.reshape(E * 4, np_)
    dr, ds, dt = ((q2 @ DT[d]).reshape(E, 4, np_) for d in range(3))  # [e, field, n]
    g = g.reshape(E, 9, 1)

    def grad(f, x):  # x = 0, 1, 2: d/dx, d/dy, d/dz of field f
        return g[:, x] * dr[:, f] + g[:, 3 + x] * ds[:, f] + g[:, 6 + x] * dt[:, f]

    rhs = xp.empty((E, 4, np_), dtype=q.dtype)
    rhs[:, 0] = -(grad(1, 0) + grad(2, 1) + grad(3, 2))
    for x in range(3):
        rhs[:, 1 + x] = -grad(0, x)
    return rhs.reshape(-1)


def run(ctx: Context) -> None:
    impls_all = [i for i in ctx.impls if i.name in
                 ("okl", "cuda-hand", "opencl-hand", "openmp-hand", "openmp-hand-1t", "numpy")]
    by_e: dict[int, list] = {}
    for impl in impls_all:
        by_e.setdefault(elements(ctx, impl), []).append(impl)
    for E, impls in sorted(by_e.items(), reverse=True):
        log(f"[bench] dgvolume N={N} E={E}: generating inputs")
        cfg = Config(ctx, {"vgeo": random_array(E * 9, np.float64, 31, -1, 1),
                           "DT": random_array(3 * NP * NP, np.float64, 32, -1, 1),
                           "q": random_array(E * 4 * NP, np.float64, 33, -1, 1)})
        ref = lambda xp, H: reference(xp, H, NP)  # noqa: E731
        for impl in ctx.interleaved(impls):
            _run_impl(ctx, cfg, impl, E, ref)
        cfg.release()


def _run_impl(ctx, cfg, impl, E, ref) -> None:
    A = cfg.arrays(impl)
    vgeo, DT, q = A["vgeo"], A["DT"], A["q"]
    rhs = cfg.output(impl, "rhs", E * 4 * NP, np.float64)
    defines = {"dfloat": "double", "p_Np": NP, "p_NblockV": NBLOCKV}
    reps = warm = None
    if impl.is_okl:
        k = okl_kernel(impl, "dgvolume.okl", "dgvolume", defines)
        call = lambda k=k, g=vgeo, D=DT, q=q, r=rhs: k(E, g, D, q, r)  # noqa: E731
    elif impl.name == "cuda-hand":
        f = cuda_peer(ctx, "dgvolume", defines).get_function("dgvolume")
        blocks = round_up(E, NBLOCKV) // NBLOCKV
        call = lambda f=f, g=vgeo, D=DT, q=q, r=rhs: f(  # noqa: E731
            (blocks,), (NP, NBLOCKV), (np.int32(E), g, D, q, r))
    elif impl.name == "opencl-hand":
        f = cl_kernels(impl, "dgvolume", ("dgvolume",), defines)["dgvolume"]
        blocks = round_up(E, NBLOCKV) // NBLOCKV
        call = lambda f=f, g=vgeo, D=DT, q=q, r=rhs: f(  # noqa: E731
            (blocks * NP, NBLOCKV), (NP, NBLOCKV), np.int32(E), g, D, q, r)
    elif impl.name in ("openmp-hand", "openmp-hand-1t"):
        f = cfunc(c_peer("dgvolume", defines), "dgvolume", ctypes.c_int, P, P, P, P)
        args = (ptr(vgeo), ptr(DT), ptr(q), ptr(rhs))
        call = lambda f=f, a=args: f(E, *a)  # noqa: E731
    elif impl.name == "numpy":
        def call(rhs=rhs):
            rhs[...] = reference(np, cfg.host, NP)
        reps, warm = (2, 0) if ctx.quick else (3, 0)
    fl, by = E * flops_per_element(NP), E * bytes_per_element(NP)

    def derive(rec: dict) -> None:
        rec["gdofs_best"] = E * NP / rec["time_min_s"] / 1e9
        rec["gbs_best"] = by / rec["time_min_s"] / 1e9
    measure(ctx, impl, bench="dgvolume", kernel=f"dgvolume N={N}", size=E,
            size_label=f"E={E}", precision="fp64", metric="GFLOP/s",
            work=fl, call=call, reps=reps, warmup=warm,
            check=cfg.checker(impl, rhs, "rhs", ref, rtol=1e-11), derive=derive,
            extra={"order": N, "np": NP, "elements": E, "nblockv": NBLOCKV,
                   "flops_per_call": fl, "bytes_per_call": by})
