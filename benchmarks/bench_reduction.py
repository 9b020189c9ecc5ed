"""Float sum reduction: @shared tree + second pass (reduceShared) and the @atomic variant
(reduceAtomic).  GB/s = 4 bytes per entry read."""

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
    pow2_label,
    ptr,
    random_array,
)

BLOCK = 256


def run(ctx: Context) -> None:
    by_size: dict[int, list] = {}
    for impl in ctx.impls:
        if impl.name not in ("okl", "cuda-hand", "cupy", "opencl-hand", "openmp-hand",
                             "openmp-hand-1t", "numpy"):
            continue
        n = 5000 + 11 if ctx.quick else (2**28 if impl.device == "gpu" else 2**25)
        by_size.setdefault(n, []).append(impl)
    unroll = 2 if ctx.quick else 32
    for n, impls in sorted(by_size.items()):
        log(f"[bench] reduction n={pow2_label(n)}: generating inputs")
        cfg = Config(ctx, {"x": random_array(n, np.float32, 8)})
        nblocks = (n + BLOCK * unroll - 1) // (BLOCK * unroll)
        ref = lambda xp, H: xp.asarray([H["x"].astype(xp.float64).sum()])  # noqa: E731
        for impl in ctx.interleaved(impls):
            _run_impl(ctx, cfg, impl, n, nblocks, unroll, ref)
        cfg.release()


def _run_impl(ctx, cfg, impl, n, nblocks, unroll, ref) -> None:
    x = cfg.arrays(impl)["x"]
    partial = cfg.output(impl, "partial", nblocks, np.float32)
    total = cfg.output(impl, "total", 1, np.float32)
    calls = {}
    defines = {"p_B": BLOCK, "p_U": unroll}
    if impl.is_okl:
        ks = okl_kernel(impl, "reduction.okl", "reduceShared", defines)
        ka = okl_kernel(impl, "reduction.okl", "reduceAtomic", defines)
        calls = {"shared": lambda: ks(n, x, partial, total),
                 "atomic": lambda: ka(n, x, total)}
    elif impl.name == "cuda-hand":
        mod = cuda_peer(ctx, "reduction", defines)
        fs, ff, fa = (mod.get_function(f) for f in
                      ("reduce_shared", "reduce_final", "reduce_atomic"))
        N, NB = np.int32(n), np.int32(nblocks)

        def shared():
            fs((nblocks,), (BLOCK,), (N, x, partial))
            ff((1,), (BLOCK,), (NB, partial, total))
        calls = {"shared": shared,
                 "atomic": lambda: fa((nblocks,), (BLOCK,), (N, x, total))}
    elif impl.name == "opencl-hand":
        f = cl_kernels(impl, "reduction", ("reduce_shared", "reduce_final", "reduce_atomic"),
                       defines)
        N, NB = np.int32(n), np.int32(nblocks)
        glob, blk = (nblocks * BLOCK,), (BLOCK,)

        def clshared():
            f["reduce_shared"](glob, blk, N, x, partial)
            f["reduce_final"]((BLOCK,), blk, NB, partial, total)
        calls = {"shared": clshared,
                 "atomic": lambda: f["reduce_atomic"](glob, blk, N, x, total)}
    elif impl.name == "cupy":
        cp = ctx.cp
        calls = {"shared": lambda: cp.sum(x, out=total[0])}
    elif impl.name in ("openmp-hand", "openmp-hand-1t"):
        lib = c_peer("reduction", defines)
        fb = cfunc(lib, "reduce_blocked", I32, P, P, P)
        fa = cfunc(lib, "reduce_atomic", I32, P, P)
        px, pp, pt = ptr(x), ptr(partial), ptr(total)
        calls = {"shared": lambda: fb(n, px, pp, pt), "atomic": lambda: fa(n, px, pt)}
    elif impl.name == "numpy":
        def nsum():
            total[0] = np.sum(x)
        calls = {"shared": nsum}
    for kind, call in calls.items():
        pre = (lambda t=total, i=impl: cfg.space.zero(i, t)) if kind == "atomic" \
            else None
        measure(ctx, impl, bench="reduction", kernel=kind, size=n,
                size_label=pow2_label(n), precision="fp32", metric="GB/s",
                work=4 * n, call=call, pre=pre,
                check=cfg.checker(impl, total, "sum", ref, rtol=1e-3),
                extra={"blocks": nblocks, "unroll": unroll})
