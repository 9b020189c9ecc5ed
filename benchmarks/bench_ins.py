"""ins: incompressible Navier-Stokes with artificial compressibility on the 2-D lid-driven
cavity (after Pickering et al., "Directive-Based GPU Programming for Computational Fluid
Dynamics"): collocated n x n grid, central differences, explicit Euler, 1000 time steps per
call (20 with --quick), FP64 and FP32, and a sweep of the thread-block shape (p_BX x p_BY).

One step = one launch of kernels/ins.okl (insStep), ping-ponging between two sets of (u, v, p);
the first step reads the inputs, which are never written, so every call computes the same
answer.  GFLOP/s counts 45 flops per interior point per step (as written: 12 for the six first
derivatives, 12 for the two Laplacians, 6 for convection, 12 for the momentum updates, 3 for
the pressure update; boundary points count nothing).  Also reported: Gpts/s (points updated per
second) and effective GB/s at the minimum 6 words per point (read u, v, p; write u, v, p).
"""

from __future__ import annotations

import ctypes
import dataclasses

import numpy as np

from .common import (
    Config,
    Context,
    P,
    c_peer,
    cfunc,
    cl_kernels,
    compare,
    ctype_of,
    cuda_peer,
    log,
    measure,
    okl_kernel,
    ptr,
    random_array,
)

FLOPS_PER_POINT = 45
RE, LID = 100.0, 1.0
NU = LID * 1.0 / RE
# block shapes (p_BX, p_BY): the paper's compiler default 64 x 4 among them
GPU_SHAPES = ((32, 1), (32, 2), (32, 4), (32, 8), (32, 16), (64, 1), (64, 2), (64, 4),
              (64, 8), (128, 1), (128, 2), (128, 4), (256, 1), (16, 16), (16, 8))
CPU_SHAPES = ((64, 4), (256, 1))
PRECISIONS = (("fp64", np.float64), ("fp32", np.float32))


def size(ctx: Context, device: str) -> int:
    if ctx.quick:
        return 64
    return 4096 if device == "gpu" else 512


def steps(ctx: Context) -> int:
    return 20 if ctx.quick else 1000


def params(n: int) -> dict:
    """Scalars of the step for an n x n grid of the unit square, chosen for stability of the
    explicit scheme at any n: diffusion number nu dt / h^2 = 0.2, acoustic Courant number
    beta dt / h = 0.1, cell Reynolds number lid h / nu <= 1.6 for n >= 64."""
    h = 1.0 / (n - 1)
    dt = 0.2 * h * h / NU
    beta = 0.1 * h / dt
    return {"dt": dt, "nu": NU, "dtb2": dt * beta * beta, "inv2h": 0.5 / h,
            "invh2": 1.0 / (h * h), "lid": LID}


def ref_step(xp, u, v, p, s: dict):
    """One step in array notation (independent of the kernels' code), in u's dtype."""
    t = u.dtype.type
    dt, nu, dtb2, i2h, ih2 = (t(s[k]) for k in ("dt", "nu", "dtb2", "inv2h", "invh2"))
    C = (slice(1, -1), slice(1, -1))
    E, W = (slice(1, -1), slice(2, None)), (slice(1, -1), slice(None, -2))
    N, S = (slice(2, None), slice(1, -1)), (slice(None, -2), slice(1, -1))
    uc, vc = u[C], v[C]
    ux, uy = (u[E] - u[W]) * i2h, (u[N] - u[S]) * i2h
    vx, vy = (v[E] - v[W]) * i2h, (v[N] - v[S]) * i2h
    px, py = (p[E] - p[W]) * i2h, (p[N] - p[S]) * i2h
    lapu = (u[E] + u[W] + u[N] + u[S] - 4 * uc) * ih2
    lapv = (v[E] + v[W] + v[N] + v[S] - 4 * vc) * ih2
    un, vn, pn = xp.zeros_like(u), xp.zeros_like(v), xp.empty_like(p)
    un[C] = uc + dt * (nu * lapu - (uc * ux + vc * uy) - px)
    vn[C] = vc + dt * (nu * lapv - (uc * vx + vc * vy) - py)
    pn[C] = p[C] - dtb2 * (ux + vy)
    un[-1, :] = t(s["lid"])
    # boundary pressure: the old p of the nearest interior point (corners: the diagonal one)
    pn[0, :] = xp.pad(p[1, 1:-1], 1, mode="edge")
    pn[-1, :] = xp.pad(p[-2, 1:-1], 1, mode="edge")
    pn[1:-1, 0] = p[1:-1, 1]
    pn[1:-1, -1] = p[1:-1, -2]
    return un, vn, pn


def reference(xp, H, n: int, nsteps: int):
    s = params(n)
    u, v, p = (H[k].reshape(n, n) for k in ("u", "v", "p"))
    for _ in range(nsteps):
        u, v, p = ref_step(xp, u, v, p, s)
    return u, v, p


def run(ctx: Context) -> None:
    devices = sorted({i.device for i in ctx.impls})
    names = ("okl", "cuda-hand", "opencl-hand", "openmp-hand", "openmp-hand-1t", "numpy")
    for n in sorted({size(ctx, d) for d in devices}, reverse=True):
        impls = [i for i in ctx.impls if size(ctx, i.device) == n and i.name in names
                 and (i.name != "numpy" or ctx.quick)]  # numpy: 1000 steps take too long
        if not impls:
            continue
        for prec, dtype in PRECISIONS:
            log(f"[bench] ins {n}^2 {prec}: generating inputs")
            cfg = Config(ctx, {"u": random_array(n * n, dtype, 21, -0.1, 0.1),
                               "v": random_array(n * n, dtype, 22, -0.1, 0.1),
                               "p": random_array(n * n, dtype, 23, -0.1, 0.1)})
            for impl in ctx.interleaved(impls):
                shapes = GPU_SHAPES if impl.device == "gpu" else CPU_SHAPES
                for bx, by in shapes:
                    _run_impl(ctx, cfg, impl, n, prec, dtype, bx, by)
                if impl.name == "openmp-hand":  # the whole solver loop in C, one call
                    _run_impl(ctx, cfg, dataclasses.replace(impl, name="openmp-hand-loop"),
                              n, prec, dtype, *shapes[0])
            cfg.release()
            _best_shape(ctx, n, prec)


def _best_shape(ctx: Context, n: int, prec: str) -> None:
    """Log (and note in the JSON) the fastest block shape of each okl mode and CUDA peer."""
    rows = [r for r in ctx.results if r.get("bench") == "ins" and r.get("size") == n * n
            and r.get("precision") == prec and r.get("check") == "PASS"
            and r.get("impl") in ("okl", "cuda-hand", "opencl-hand")]
    for label in sorted({r["label"] for r in rows}):
        mine = [r for r in rows if r["label"] == label]
        if len(mine) < 2:
            continue
        best = max(mine, key=lambda r: r["value_best"])
        dflt = [r for r in mine if r["kernel"] == "ins 64x4"]
        gain = f", {best['value_best'] / dflt[0]['value_best']:.2f}x the 64x4 default" \
            if dflt else ""
        msg = (f"ins {n}^2 {prec} {label}: best block {best['kernel'][4:]} "
               f"{best['gflops_best']:.1f} GFLOP/s{gain}")
        log(f"[bench] {msg}")
        ctx.notes.append(msg)


def _run_impl(ctx, cfg, impl, n, prec, dtype, bx, by) -> None:
    A = cfg.arrays(impl)
    u0, v0, p0 = A["u"], A["v"], A["p"]
    outs = [cfg.output(impl, f"{k}{s}", n * n, dtype) for s in "AB" for k in "uvp"]
    set_a, set_b = tuple(outs[:3]), tuple(outs[3:])
    nsteps = steps(ctx)
    final = set_b if nsteps % 2 == 0 else set_a
    s = params(n)
    t = np.dtype(dtype).type
    sc = (np.int32(n), np.int32(n), *(t(s[k]) for k in
                                      ("dt", "nu", "dtb2", "inv2h", "invh2", "lid")))
    # argument sets of step 0 (inputs -> A), odd steps (A -> B), even steps (B -> A)
    arg0, arg_odd, arg_even = (sc + (u0, v0, p0) + set_a, sc + set_a + set_b,
                               sc + set_b + set_a)
    rest = [arg_odd if i % 2 else arg_even for i in range(1, nsteps)]
    fp = "double" if prec == "fp64" else "float"
    # a 64-bit flat index on CPU modes: with an int one gcc vectorises the guarded loads of
    # the interior loop as gathers (2-3x slower); GPU modes keep int, as the CUDA peer does
    idx = "long" if impl.device == "cpu" and impl.mode in ("serial", "openmp") else "int"
    defines = {"dfloat": fp, "p_BX": bx, "p_BY": by, "p_Idx": idx}
    grid = ((n - 2 + bx - 1) // bx, (n - 2 + by - 1) // by)
    nring = 4 * n
    reps, warm = (None, None) if ctx.quick else (2 if impl.device == "cpu" else 5, 0)

    def loop(launch):
        def call():
            launch(arg0)
            for a in rest:
                launch(a)
        return call

    if impl.is_okl:
        k = okl_kernel(impl, "ins.okl", "insStep", defines)
        call = loop(lambda a, k=k: k(*a))
    elif impl.name == "cuda-hand":
        mod = cuda_peer(ctx, "ins", defines)
        fi, fb = mod.get_function("insInterior"), mod.get_function("insBoundary")
        bgrid = ((nring + 255) // 256,)

        def launch(a, fi=fi, fb=fb):
            fi(grid, (bx, by), a)
            fb(bgrid, (256,), (a[0], a[1], a[7], a[10], a[11], a[12], a[13]))
        call = loop(launch)
    elif impl.name == "opencl-hand":
        ks = cl_kernels(impl, "ins", ("insInterior", "insBoundary"), defines)
        fi, fb = ks["insInterior"], ks["insBoundary"]
        gsize, bsize = (grid[0] * bx, grid[1] * by), ((nring + 255) // 256 * 256,)

        def launch(a, fi=fi, fb=fb):
            fi(gsize, (bx, by), *a)
            fb(bsize, (256,), a[0], a[1], a[7], a[10], a[11], a[12], a[13])
        call = loop(launch)
    elif impl.name in ("openmp-hand", "openmp-hand-1t"):
        T = ctype_of(dtype)
        f = cfunc(c_peer("ins", {"dfloat": fp}), "ins_step",
                  ctypes.c_int, ctypes.c_int, *[T] * 6, *[P] * 6)
        call = loop(lambda a, f=f: f(*a[:8], *[ptr(x) for x in a[8:]]))
    elif impl.name == "openmp-hand-loop":
        T = ctype_of(dtype)
        f = cfunc(c_peer("ins", {"dfloat": fp}), "ins_run",
                  ctypes.c_int, ctypes.c_int, ctypes.c_int, *[T] * 6, *[P] * 9)
        ps = [ptr(x) for x in (u0, v0, p0, *set_a, *set_b)]
        call = lambda f=f: f(nsteps, *sc, *ps)  # noqa: E731
    elif impl.name == "numpy":
        def call():
            for dst, src in zip(final, reference(np, cfg.host, n, nsteps), strict=True):
                dst[...] = src.reshape(-1)
    else:
        return

    rtol = 1e-10 if prec == "fp64" else 2e-4

    def check():
        ref = cfg.ref(impl, "uvp", lambda xp, H: reference(xp, H, n, nsteps))
        xp = ctx.cp if impl.space == "cupy" else np
        details = []
        for name, out, r in zip("uvp", final, ref, strict=True):
            got = out.get() if impl.space == "opencl" else out
            ok, d = compare(xp, got, r.reshape(-1), rtol=rtol)
            details.append(f"{name}: {d}")
            if not ok:
                return False, "; ".join(details)
        return True, "; ".join(details)

    points = n * n * nsteps

    def derive(rec: dict) -> None:
        for key, tm in (("best", "time_min_s"), ("median", "time_median_s")):
            rec[f"gflops_{key}"] = rec["flops_per_call"] / rec[tm] / 1e9
            rec[f"eff_gbs_{key}"] = rec["bytes_per_call"] / rec[tm] / 1e9
    measure(ctx, impl, bench="ins", kernel=f"ins {bx}x{by}", size=n * n,
            size_label=f"{n}^2 x{nsteps}", precision=prec, metric="Gpts/s",
            work=points, call=call, check=check, reps=reps, warmup=warm, derive=derive,
            extra={"n": n, "steps": nsteps, "block": [bx, by],
                   "flops_per_call": (n - 2) ** 2 * nsteps * FLOPS_PER_POINT,
                   "bytes_per_call": points * 6 * np.dtype(dtype).itemsize})
