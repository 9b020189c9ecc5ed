"""fd2d: one step of the 2-D wave equation, radius-7 stencil, 16 x 16 tiles, float.
Gpts/s = grid points updated per second (also reported: GFLOP/s at 65 flop per point, as
OCCA's example counts, and effective GB/s at the minimum 12 bytes per point)."""

from __future__ import annotations

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
)

SR, BX, BY = 7, 16, 16
C2, DT2, FREQ, T = 0.25, 0.01, 10.0, 0.1
WEIGHTS = [-3.023594104, 1.75, -0.2916666667, 0.06481481481, -0.01325757576, 0.002121212121,
           -0.0002266252266, 0.00001189286904]


def sizes(ctx: Context, device: str) -> list[int]:
    if ctx.quick:
        return [64]
    return [8192, 2048] if device == "gpu" else [2048]


def defines(w: int, h: int) -> dict:
    return {"p_W": w, "p_H": h, "p_BX": BX, "p_BY": BY, "p_SR": SR, "p_C2": f"{C2}f",
            "p_DT2": f"{DT2}f", "p_SX": w // 2 + 3, "p_SY": h // 2 - 5, "p_FREQ": f"{FREQ}f"}


def wavelet(t: float) -> float:
    a = np.pi * FREQ * (t - 1.0 / FREQ)
    return (1.0 - 2.0 * a * a) * np.exp(-a * a)


def reference(xp, H, w, h, dtype=None):
    """u1 = 2 u2 - u3 + C2 lap(u2) (+ source), periodic; in float64 unless dtype given."""
    dtype = dtype or xp.float64
    u2 = H["u2"].astype(dtype, copy=False)
    u3 = H["u3"].astype(dtype, copy=False)
    p = xp.pad(u2, SR, mode="wrap")
    lap = 2.0 * WEIGHTS[0] * u2
    for r in range(1, SR + 1):
        lap = lap + WEIGHTS[r] * (p[SR:SR + h, SR - r:SR - r + w]
                                  + p[SR:SR + h, SR + r:SR + r + w]
                                  + p[SR - r:SR - r + h, SR:SR + w]
                                  + p[SR + r:SR + r + h, SR:SR + w])
    out = 2.0 * u2 - u3 + C2 * lap
    d = defines(w, h)
    out[d["p_SY"], d["p_SX"]] += DT2 * wavelet(T)
    return out


def run(ctx: Context) -> None:
    devices = sorted({i.device for i in ctx.impls})
    for w in sorted({s for d in devices for s in sizes(ctx, d)}, reverse=True):
        h = w
        impls = [i for i in ctx.impls if w in sizes(ctx, i.device) and i.name in
                 ("okl", "cuda-hand", "opencl-hand", "openmp-hand", "openmp-hand-1t", "numpy")]
        if not impls:
            continue
        log(f"[bench] fd2d {w}x{h}: generating inputs")
        cfg = Config(ctx, {"u2": random_array((h, w), np.float32, 9, -1, 1),
                           "u3": random_array((h, w), np.float32, 10, -1, 1)})
        D = defines(w, h)
        t = np.float32(T)
        for impl in ctx.interleaved(impls):
            _run_impl(ctx, cfg, impl, w, h, D, t)
        cfg.release()


def _run_impl(ctx, cfg, impl, w, h, D, t) -> None:
    A = cfg.arrays(impl)
    u2, u3 = A["u2"], A["u3"]
    u1 = cfg.output(impl, "u1", (h, w), np.float32)
    call = None
    if impl.is_okl:
        k = okl_kernel(impl, "fd2d.okl", "fd2d", D)
        call = lambda k=k, u2=u2, u3=u3, u1=u1: k(t, u2, u3, u1)  # noqa: E731
    elif impl.name == "cuda-hand":
        f = cuda_peer(ctx, "fd2d", D).get_function("fd2d")
        call = lambda f=f, u2=u2, u3=u3, u1=u1: f((w // BX, h // BY), (BX, BY),  # noqa
                                                  (t, u2, u3, u1))
    elif impl.name == "opencl-hand":
        f = cl_kernels(impl, "fd2d", ("fd2d",), D)["fd2d"]
        call = lambda f=f, u2=u2, u3=u3, u1=u1: f((w, h), (BX, BY), t, u2, u3, u1)  # noqa
    elif impl.name in ("openmp-hand", "openmp-hand-1t"):
        f = cfunc(c_peer("fd2d", D), "fd2d", __import__("ctypes").c_float, P, P, P)
        call = lambda f=f, a=ptr(u2), b=ptr(u3), c=ptr(u1): f(t, a, b, c)  # noqa
    elif impl.name == "numpy":
        def call(u1=u1):
            u1[...] = reference(np, cfg.host, w, h, np.float32)
    check = cfg.checker(impl, u1, "u1", lambda xp, H: reference(xp, H, w, h),
                        rtol=2e-6)

    def derive(rec: dict) -> None:
        rec["gflops_best"] = rec["value_best"] * 65
        rec["eff_gbs_best"] = rec["value_best"] * 12
    measure(ctx, impl, bench="fd2d", kernel="fd2d", size=w * h,
            size_label=f"{w}^2", precision="fp32", metric="Gpts/s", work=w * h,
            call=call, check=check, derive=derive,
            extra={"width": w, "height": h, "radius": SR})
