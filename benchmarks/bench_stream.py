"""Stream set (copy, mul, add, triad, dot), FP64 and FP32: GB/s counted as BabelStream does.

Inputs a, b, c are random and never written; every kernel writes a separate output o (or a
partial-sum array and one result for dot), so each result can be checked.  Words moved per
element: copy 2, mul 2, add 3, triad 3, dot 2.
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
    ctype_of,
    cuda_peer,
    log,
    measure,
    okl_kernel,
    pow2_label,
    ptr,
    random_array,
    round_up,
)

KERNELS = ("copy", "mul", "add", "triad", "dot")
WORDS = {"copy": 2, "mul": 2, "add": 3, "triad": 3, "dot": 2}
OKL_NAMES = {"copy": "streamCopy", "mul": "streamMul", "add": "streamAdd",
             "triad": "streamTriad", "dot": "streamDot"}
SCALAR = 0.4
BLOCK = 256
DOTB = 256


def sizes(ctx: Context, device: str) -> list[int]:
    if ctx.quick:
        return [4096 + 37]
    return [2**25, 2**28] if device == "gpu" else [2**25]


def refs(name: str, s):
    return {
        "copy": lambda xp, A: A["a"],
        "mul": lambda xp, A: s * A["c"],
        "add": lambda xp, A: A["a"] + A["b"],
        "triad": lambda xp, A: A["b"] + s * A["c"],
        "dot": lambda xp, A: xp.asarray([xp.dot(A["a"].astype(xp.float64),
                                                A["b"].astype(xp.float64))]),
    }[name]


def dot_blocks(ctx: Context, impl) -> int:
    if ctx.quick:
        return 4
    if impl.device == "gpu":
        sms = ctx.cp.cuda.runtime.getDeviceProperties(0)["multiProcessorCount"] \
            if ctx.cp is not None else 132
        return 8 * sms
    return 64


def run(ctx: Context) -> None:
    devices = sorted({i.device for i in ctx.impls})
    all_sizes = sorted({n for d in devices for n in sizes(ctx, d)})
    for n in all_sizes:
        for dtype in (np.float64, np.float32):
            impls = [i for i in ctx.impls if n in sizes(ctx, i.device)
                     and i.name in ("okl", "cuda-hand", "cupy", "cupy-memcpy", "opencl-hand",
                                    "openmp-hand", "openmp-hand-1t", "numpy")]
            if not impls:
                continue
            prec = "fp64" if dtype == np.float64 else "fp32"
            log(f"[bench] stream n={pow2_label(n)} {prec}: generating inputs")
            cfg = Config(ctx, {"a": random_array(n, dtype, 1), "b": random_array(n, dtype, 2),
                               "c": random_array(n, dtype, 3)})
            for impl in ctx.interleaved(impls):
                run_impl(ctx, cfg, impl, n, dtype, prec)
            cfg.release()


def run_impl(ctx, cfg, impl, n, dtype, prec) -> None:
    s = dtype(SCALAR)
    A = cfg.arrays(impl)
    a, b, c = A["a"], A["b"], A["c"]
    o = cfg.output(impl, "o", n, dtype)
    nblocks = dot_blocks(ctx, impl)
    partial = cfg.output(impl, "partial", nblocks, dtype)
    result = cfg.output(impl, "result", 1, dtype)
    itemsize = np.dtype(dtype).itemsize
    tol = 1e-12 if dtype == np.float64 else 1e-5
    dot_tol = 1e-10 if dtype == np.float64 else 1e-3
    defines = {"dfloat": "double" if dtype == np.float64 else "float", "p_B": BLOCK,
               "p_DOTB": DOTB}
    calls = {}
    if impl.is_okl:
        ks = {k: okl_kernel(impl, "stream.okl", OKL_NAMES[k], defines) for k in KERNELS}
        calls = {"copy": lambda: ks["copy"](n, a, o),
                 "mul": lambda: ks["mul"](n, s, c, o),
                 "add": lambda: ks["add"](n, a, b, o),
                 "triad": lambda: ks["triad"](n, s, b, c, o),
                 "dot": lambda: ks["dot"](n, nblocks, a, b, partial, result)}
    elif impl.name == "cuda-hand":
        mod = cuda_peer(ctx, "stream", {"dfloat": defines["dfloat"], "p_DOTB": DOTB})
        f = {k: mod.get_function(f"stream_{k}") for k in KERNELS}
        fin = mod.get_function("stream_dot_final")
        grid, blk = ((n + BLOCK - 1) // BLOCK,), (BLOCK,)
        N = np.int32(n)
        chunk = ((n + nblocks - 1) // nblocks + DOTB - 1) // DOTB * DOTB

        def dot():
            f["dot"]((nblocks,), (DOTB,), (N, np.int32(chunk), a, b, partial))
            fin((1,), (DOTB,), (np.int32(nblocks), partial, result))
        calls = {"copy": lambda: f["copy"](grid, blk, (N, a, o)),
                 "mul": lambda: f["mul"](grid, blk, (N, s, c, o)),
                 "add": lambda: f["add"](grid, blk, (N, a, b, o)),
                 "triad": lambda: f["triad"](grid, blk, (N, s, b, c, o)),
                 "dot": dot}
    elif impl.name == "opencl-hand":
        f = cl_kernels(impl, "stream", [f"stream_{k}" for k in (*KERNELS, "dot_final")],
                       {"dfloat": defines["dfloat"], "p_B": BLOCK, "p_DOTB": DOTB})
        glob, blk = (round_up(n, BLOCK),), (BLOCK,)
        N = np.int32(n)
        chunk = np.int32(((n + nblocks - 1) // nblocks + DOTB - 1) // DOTB * DOTB)

        def cldot():
            f["stream_dot"]((nblocks * DOTB,), (DOTB,), N, chunk, a, b, partial)
            f["stream_dot_final"]((DOTB,), (DOTB,), np.int32(nblocks), partial, result)
        calls = {"copy": lambda: f["stream_copy"](glob, blk, N, a, o),
                 "mul": lambda: f["stream_mul"](glob, blk, N, s, c, o),
                 "add": lambda: f["stream_add"](glob, blk, N, a, b, o),
                 "triad": lambda: f["stream_triad"](glob, blk, N, s, b, c, o),
                 "dot": cldot}
    elif impl.name == "cupy":
        cp = ctx.cp

        def cdot():
            result[...] = cp.dot(a, b)
        calls = {"copy": lambda: cp.copyto(o, a),
                 "mul": lambda: cp.multiply(c, s, out=o),
                 "add": lambda: cp.add(a, b, out=o),
                 "triad": lambda: cp.add(b, s * c, out=o),
                 "dot": cdot}
    elif impl.name == "cupy-memcpy":
        calls = {"copy": lambda: o.data.copy_from_device_async(a.data, a.nbytes)}
    elif impl.name in ("openmp-hand", "openmp-hand-1t"):
        lib = c_peer("stream", {"dfloat": defines["dfloat"]})
        T = ctype_of(dtype)
        fcopy = cfunc(lib, "stream_copy", I32, P, P)
        fmul = cfunc(lib, "stream_mul", I32, T, P, P)
        fadd = cfunc(lib, "stream_add", I32, P, P, P)
        ftriad = cfunc(lib, "stream_triad", I32, T, P, P, P)
        fdot = cfunc(lib, "stream_dot", I32, P, P, P)
        pa, pb, pc, po, pr = ptr(a), ptr(b), ptr(c), ptr(o), ptr(result)
        calls = {"copy": lambda: fcopy(n, pa, po), "mul": lambda: fmul(n, s, pc, po),
                 "add": lambda: fadd(n, pa, pb, po), "triad": lambda: ftriad(n, s, pb, pc, po),
                 "dot": lambda: fdot(n, pa, pb, pr)}
    elif impl.name == "numpy":
        def triad():
            np.multiply(c, s, out=o)
            np.add(o, b, out=o)

        def ndot():
            result[0] = np.dot(a, b)
        calls = {"copy": lambda: np.copyto(o, a), "mul": lambda: np.multiply(c, s, out=o),
                 "add": lambda: np.add(a, b, out=o), "triad": triad, "dot": ndot}
    for k in KERNELS:
        if k not in calls:
            continue
        out = result if k == "dot" else o
        cfg.output(impl, "result" if k == "dot" else "o", 1 if k == "dot" else n, dtype)  # poison
        check = cfg.checker(impl, out, k, refs(k, s), rtol=dot_tol if k == "dot" else tol)
        measure(ctx, impl, bench="stream", kernel=k, size=n, size_label=pow2_label(n),
                precision=prec, metric="GB/s", work=WORDS[k] * n * itemsize, call=calls[k],
                check=check, extra={"dot_blocks": nblocks} if k == "dot" else None)
