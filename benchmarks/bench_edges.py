"""Indirect increment over edges (OP2 Airfoil res_calc style) with atomics, FP64.

Mesh: a periodic nx x ny grid of quads, each split into two triangles (cells); every edge
(three per quad: the diagonal, the bottom and the left side) joins two cells and carries a
scaled normal.  Edges and cells are numbered in generation order (quad by quad), as a mesh
generator writes them.  Useful bytes per call (each datum once, as OP2's `transfer` counts):
edges * (8 map + 16 normal) + cells * (32 q read + 32 res read + 32 res write).
"""

from __future__ import annotations

import numpy as np

from .common import (
    I32,
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
    opencl_has_extension,
    ptr,
    rng,
    round_up,
)

BLOCK = 256
GAMMA = 1.4


def grid(ctx: Context, device: str) -> int:
    if ctx.quick:
        return 8
    return 1200 if device == "gpu" else 600


def mesh(n: int):
    """(ecell int32 [E, 2], enorm float64 [E, 2], ncells) for an n x n periodic grid."""
    h = 1.0 / n
    j, i = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    quad = (j * n + i).ravel()
    low, up = 2 * quad, 2 * quad + 1                      # the two triangles of each quad
    below = 2 * (((j - 1) % n) * n + i).ravel() + 1       # upper triangle of the quad below
    left = 2 * (j * n + (i - 1) % n).ravel()              # lower triangle of the left quad
    ecell = np.stack([np.stack([low, up], 1), np.stack([low, below], 1),
                      np.stack([up, left], 1)], 1).reshape(-1, 2).astype(np.int32)
    normals = np.array([[-h, h], [0.0, -h], [-h, 0.0]])
    enorm = np.broadcast_to(normals, (n * n, 3, 2)).reshape(-1, 2).copy()
    return ecell, enorm, 2 * n * n


def states(ncells: int) -> np.ndarray:
    g = rng(14)
    rho = 1.0 + g.random(ncells)
    mu, mv = g.random(ncells) - 0.5, g.random(ncells) - 0.5
    p = 1.0 + g.random(ncells)
    E = p / (GAMMA - 1.0) + 0.5 * (mu * mu + mv * mv) / rho
    return np.stack([rho, mu, mv, E], 1).ravel().copy()


def reference(xp, H):
    ec, en, q = H["ecell"].reshape(-1, 2), H["enorm"].reshape(-1, 2), H["q"].reshape(-1, 4)
    c1, c2 = ec[:, 0], ec[:, 1]
    nx, ny = en[:, 0], en[:, 1]
    q1, q2 = q[c1], q[c2]
    i1, i2 = 1.0 / q1[:, 0], 1.0 / q2[:, 0]
    p1 = (GAMMA - 1.0) * (q1[:, 3] - 0.5 * (q1[:, 1] ** 2 + q1[:, 2] ** 2) * i1)
    p2 = (GAMMA - 1.0) * (q2[:, 3] - 0.5 * (q2[:, 1] ** 2 + q2[:, 2] ** 2) * i2)
    vn1 = (q1[:, 1] * nx + q1[:, 2] * ny) * i1
    vn2 = (q2[:, 1] * nx + q2[:, 2] * ny) * i2
    ln = xp.sqrt(nx * nx + ny * ny)
    a = 0.5 * xp.maximum(xp.abs(vn1) + ln * xp.sqrt(GAMMA * p1 * i1),
                         xp.abs(vn2) + ln * xp.sqrt(GAMMA * p2 * i2))
    f = xp.stack([
        0.5 * (q1[:, 0] * vn1 + q2[:, 0] * vn2) - a * (q2[:, 0] - q1[:, 0]),
        0.5 * (q1[:, 1] * vn1 + p1 * nx + q2[:, 1] * vn2 + p2 * nx) - a * (q2[:, 1] - q1[:, 1]),
        0.5 * (q1[:, 2] * vn1 + p1 * ny + q2[:, 2] * vn2 + p2 * ny) - a * (q2[:, 2] - q1[:, 2]),
        0.5 * ((q1[:, 3] + p1) * vn1 + (q2[:, 3] + p2) * vn2) - a * (q2[:, 3] - q1[:, 3])], 1)
    res = xp.zeros_like(q)
    if xp is np:
        np.add.at(res, c1, f)
        np.add.at(res, c2, -f)
    else:
        import cupyx
        cupyx.scatter_add(res, c1, f)
        cupyx.scatter_add(res, c2, -f)
    return res.ravel()


def run(ctx: Context) -> None:
    impls_all = [i for i in ctx.impls if i.name in
                 ("okl", "cuda-hand", "opencl-hand", "openmp-hand", "openmp-hand-1t", "numpy")]
    for impl in [i for i in impls_all if i.name == "opencl-hand"]:
        if not opencl_has_extension(impl, "cl_khr_int64_base_atomics"):
            msg = (f"edges: opencl-hand skipped: {impl.device_name} lacks "
                   "cl_khr_int64_base_atomics (its FP64 atomic add is a 64-bit CAS loop)")
            log(f"[bench] {msg}")
            ctx.notes.append(msg)
            impls_all.remove(impl)
    for n in sorted({grid(ctx, i.device) for i in impls_all}, reverse=True):
        impls = [i for i in impls_all if grid(ctx, i.device) == n]
        ecell, enorm, ncells = mesh(n)
        nedges = len(ecell)
        log(f"[bench] edges {n}x{n}: {ncells} cells, {nedges} edges")
        cfg = Config(ctx, {"ecell": ecell.ravel(), "enorm": enorm.ravel(), "q": states(ncells)})
        useful = nedges * (8 + 16) + ncells * (32 + 64)
        for impl in ctx.interleaved(impls):
            _run_impl(ctx, cfg, impl, n, ncells, nedges, useful)
        cfg.release()


def _run_impl(ctx, cfg, impl, n, ncells, nedges, useful) -> None:
    A = cfg.arrays(impl)
    ec, en, q = A["ecell"], A["enorm"], A["q"]
    res = cfg.output(impl, "res", 4 * ncells, np.float64)
    reps = warm = None
    if impl.is_okl:
        k = okl_kernel(impl, "edges.okl", "resCalc",
                       {"dfloat": "double", "p_B": BLOCK, "p_GAMMA": GAMMA})
        call = lambda k=k, ec=ec, en=en, q=q, res=res: k(nedges, ec, en, q, res)  # noqa
    elif impl.name == "cuda-hand":
        f = cuda_peer(ctx, "edges", {"p_GAMMA": GAMMA}).get_function("res_calc")
        call = lambda f=f, ec=ec, en=en, q=q, res=res: f(  # noqa: E731
            ((nedges + BLOCK - 1) // BLOCK,), (BLOCK,), (np.int32(nedges), ec, en, q, res))
    elif impl.name == "opencl-hand":
        f = cl_kernels(impl, "edges", ("res_calc",), {"p_B": BLOCK, "p_GAMMA": GAMMA})
        call = lambda f=f["res_calc"], ec=ec, en=en, q=q, res=res: f(  # noqa: E731
            (round_up(nedges, BLOCK),), (BLOCK,), np.int32(nedges), ec, en, q, res)
    elif impl.name in ("openmp-hand", "openmp-hand-1t"):
        f = cfunc(c_peer("edges", {"p_GAMMA": GAMMA}), "res_calc", I32, P, P, P, P)
        call = lambda f=f, a=(ptr(ec), ptr(en), ptr(q), ptr(res)): f(nedges, *a)  # noqa
    elif impl.name == "numpy":
        def call(res=res):
            res[...] = reference(np, cfg.host)
        reps, warm = (2, 0) if ctx.quick else (3, 0)
    measure(ctx, impl, bench="edges", kernel="res_calc", size=nedges,
            size_label=f"{ncells // 1000}k cells" if ncells >= 1000 else f"{ncells} cells",
            precision="fp64", metric="GB/s", work=useful, call=call, reps=reps,
            warmup=warm, pre=lambda res=res, impl=impl: cfg.space.zero(impl, res),
            check=cfg.checker(impl, res, "res", reference, rtol=1e-12),
            extra={"cells": ncells, "edges": nedges, "useful_bytes": useful})
