"""BK5 (CEED): collocated scalar Poisson operator on hexahedra, FP64, N = 3, 5, 7, 9
(Nq = N + 1 points per direction), ~4M DOFs per run.

GDOF/s = Nelements * Nq^3 / time.  GFLOP/s uses the count 12 * Nq^4 + 15 * Nq^3 per element
(six tensor contractions of 2 * Nq flops per node for the gradient and its transpose, and
15 flops per node for the geometric factors; the 4 flops per node of the lambda * GwJ * q
term and the final sums are not counted).  Bytes per DOF (minimum): q 8 + Aq 8 + ggeo 56 = 72.
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
)

ORDERS = (3, 5, 7, 9)
LAMBDA = 1.0
DOFS = 4_000_000
SERIAL_DOFS = 500_000  # single-threaded implementations (okl serial, 1-thread C, numpy)


def flops_per_element(nq: int) -> int:
    return 12 * nq**4 + 15 * nq**3


def elements(ctx: Context, impl, nq: int) -> int:
    if ctx.quick:
        return 3
    single = impl.mode == "serial" or impl.threads == 1 or impl.name == "numpy"
    dofs = SERIAL_DOFS if single else DOFS
    return max(1, round(dofs / nq**3))


def reference(xp, H, nq: int):
    D, q, g = H["D"].reshape(nq, nq), H["q"], H["ggeo"]
    E = q.size // nq**3
    q = q.reshape(E, nq, nq, nq)                        # [e, k, j, i]
    g = g.reshape(E, 7, nq, nq, nq)
    qr = xp.einsum("im,ekjm->ekji", D, q)
    qs = xp.einsum("jm,ekmi->ekji", D, q)
    qt = xp.einsum("km,emji->ekji", D, q)
    Gr = g[:, 0] * qr + g[:, 1] * qs + g[:, 2] * qt
    Gs = g[:, 1] * qr + g[:, 3] * qs + g[:, 4] * qt
    Gt = g[:, 2] * qr + g[:, 4] * qs + g[:, 5] * qt
    Aq = (LAMBDA * g[:, 6] * q + xp.einsum("mi,ekjm->ekji", D, Gr)
          + xp.einsum("mj,ekmi->ekji", D, Gs) + xp.einsum("mk,emji->ekji", D, Gt))
    return Aq.reshape(-1)


def run(ctx: Context) -> None:
    impls_all = [i for i in ctx.impls if i.name in
                 ("okl", "cuda-hand", "opencl-hand", "openmp-hand", "openmp-hand-1t", "numpy")]
    for N in ORDERS:
        nq = N + 1
        by_e: dict[int, list] = {}
        for impl in impls_all:
            by_e.setdefault(elements(ctx, impl, nq), []).append(impl)
        for E, impls in sorted(by_e.items(), reverse=True):
            log(f"[bench] bk5 N={N} E={E}: generating inputs")
            np_ = nq**3
            cfg = Config(ctx, {"ggeo": random_array(E * 7 * np_, np.float64, 11),
                               "D": random_array(nq * nq, np.float64, 12, -1, 1),
                               "q": random_array(E * np_, np.float64, 13, -1, 1)})
            ref = lambda xp, H, nq=nq: reference(xp, H, nq)  # noqa: E731
            for impl in ctx.interleaved(impls):
                _run_impl(ctx, cfg, impl, N, nq, E, ref)
            cfg.release()


def _run_impl(ctx, cfg, impl, N, nq, E, ref) -> None:
    np_ = nq**3
    A = cfg.arrays(impl)
    g, D, q = A["ggeo"], A["D"], A["q"]
    Aq = cfg.output(impl, "Aq", E * np_, np.float64)
    defines = {"dfloat": "double", "p_Nq": nq}
    reps = warm = None
    if impl.is_okl:
        k = okl_kernel(impl, "bk5.okl", "bk5", defines)
        call = lambda k=k, g=g, D=D, q=q, Aq=Aq: k(E, LAMBDA, g, D, q, Aq)  # noqa
    elif impl.name == "cuda-hand":
        f = cuda_peer(ctx, "bk5", defines).get_function("bk5")
        call = lambda f=f, g=g, D=D, q=q, Aq=Aq: f(  # noqa: E731
            (E,), (nq, nq), (np.int32(E), np.float64(LAMBDA), g, D, q, Aq))
    elif impl.name == "opencl-hand":
        f = cl_kernels(impl, "bk5", ("bk5",), defines)["bk5"]
        call = lambda f=f, g=g, D=D, q=q, Aq=Aq: f(  # noqa: E731
            (E * nq, nq), (nq, nq), np.int32(E), np.float64(LAMBDA), g, D, q, Aq)
    elif impl.name in ("openmp-hand", "openmp-hand-1t"):
        f = cfunc(c_peer("bk5", defines), "bk5", ctypes.c_int, ctypes.c_double,
                  P, P, P, P)
        call = lambda f=f, a=(ptr(g), ptr(D), ptr(q), ptr(Aq)): f(E, LAMBDA, *a)  # noqa
    elif impl.name == "numpy":
        def call(Aq=Aq, nq=nq):
            Aq[...] = reference(np, cfg.host, nq)
        reps, warm = (2, 0) if ctx.quick else (3, 0)

    def derive(rec: dict) -> None:
        rec["gflops_best"] = E * flops_per_element(nq) / rec["time_min_s"] / 1e9
        rec["gflops_median"] = E * flops_per_element(nq) / rec["time_median_s"] / 1e9
    measure(ctx, impl, bench="bk5", kernel=f"bk5 N={N}", size=E * np_,
            size_label=f"E={E}", precision="fp64", metric="GDOF/s",
            work=E * np_, call=call, reps=reps, warmup=warm,
            check=cfg.checker(impl, Aq, "Aq", ref, rtol=1e-11), derive=derive,
            extra={"order": N, "nq": nq, "elements": E,
                   "flops_per_call": E * flops_per_element(nq),
                   "bytes_per_call": E * np_ * 72})
