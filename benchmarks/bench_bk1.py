"""BK1 (CEED / benchParanumal): the mass operator on hexahedra with an over-integrated
cubature, FP64, N = 3 and 7 (Nq = N + 1 GLL nodes and cubNq = N + 2 cubature points per
direction), ~4M DOFs per run.

    Mq_e = (I^T x I^T x I^T) diag(wJ_e) (I x I x I) q_e,   I: cubNq x Nq interpolation matrix.

GDOF/s = Nelements * Nq^3 / time.  Its DRAM bound: bytes per element (minimum) q 8 Nq^3 +
Mq 8 Nq^3 + wJ 8 cubNq^3 (27.4 B per DOF at N = 7, 31.6 at N = 3).  GFLOP/s uses the count
4 Nq (Nq^2 cubNq + Nq cubNq^2 + cubNq^3) + cubNq^3 per element (six 1-D passes of 2 flops per
multiply-add, and the multiplication by wJ).
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

ORDERS = (3, 7)
DOFS = 4_000_000
SERIAL_DOFS = 500_000  # single-threaded implementations (okl serial, 1-thread C, numpy)


def flops_per_element(nq: int, cq: int) -> int:
    return 4 * nq * (nq * nq * cq + nq * cq * cq + cq**3) + cq**3


def bytes_per_element(nq: int, cq: int) -> int:
    return 16 * nq**3 + 8 * cq**3


def elements(ctx: Context, impl, nq: int) -> int:
    if ctx.quick:
        return 3
    single = impl.mode == "serial" or impl.threads == 1 or impl.name == "numpy"
    dofs = SERIAL_DOFS if single else DOFS
    return max(1, round(dofs / nq**3))


def reference(xp, H, nq: int, cq: int):
    Im, q, wJ = H["I"].reshape(cq, nq), H["q"], H["wJ"]
    E = q.size // nq**3
    q = q.reshape(E, nq, nq, nq)                           # [e, k, j, i]
    t = xp.einsum("ai,ekji->ekja", Im, q)
    t = xp.einsum("bj,ekja->ekba", Im, t)
    t = xp.einsum("ck,ekba->ecba", Im, t)
    t *= wJ.reshape(E, cq, cq, cq)
    t = xp.einsum("ck,ecba->ekba", Im, t)
    t = xp.einsum("bj,ekba->ekja", Im, t)
    t = xp.einsum("ai,ekja->ekji", Im, t)
    return t.reshape(-1)


def run(ctx: Context) -> None:
    impls_all = [i for i in ctx.impls if i.name in
                 ("okl", "cuda-hand", "opencl-hand", "openmp-hand", "openmp-hand-1t", "numpy")]
    for N in ORDERS:
        nq, cq = N + 1, N + 2
        by_e: dict[int, list] = {}
        for impl in impls_all:
            by_e.setdefault(elements(ctx, impl, nq), []).append(impl)
        for E, impls in sorted(by_e.items(), reverse=True):
            log(f"[bench] bk1 N={N} E={E}: generating inputs")
            cfg = Config(ctx, {"wJ": random_array(E * cq**3, np.float64, 21, 0.5, 1.5),
                               "I": random_array(cq * nq, np.float64, 22, -1, 1),
                               "q": random_array(E * nq**3, np.float64, 23, -1, 1)})
            ref = lambda xp, H, nq=nq, cq=cq: reference(xp, H, nq, cq)  # noqa: E731
            for impl in ctx.interleaved(impls):
                _run_impl(ctx, cfg, impl, N, nq, cq, E, ref)
            cfg.release()


def _run_impl(ctx, cfg, impl, N, nq, cq, E, ref) -> None:
    np_ = nq**3
    A = cfg.arrays(impl)
    wJ, Im, q = A["wJ"], A["I"], A["q"]
    Mq = cfg.output(impl, "Mq", E * np_, np.float64)
    defines = {"dfloat": "double", "p_Nq": nq, "p_cubNq": cq}
    reps = warm = None
    if impl.is_okl:
        k = okl_kernel(impl, "bk1.okl", "bk1", defines)
        call = lambda k=k, wJ=wJ, Im=Im, q=q, Mq=Mq: k(E, wJ, Im, q, Mq)  # noqa: E731
    elif impl.name == "cuda-hand":
        f = cuda_peer(ctx, "bk1", defines).get_function("bk1")
        call = lambda f=f, wJ=wJ, Im=Im, q=q, Mq=Mq: f(  # noqa: E731
            (E,), (cq, cq), (np.int32(E), wJ, Im, q, Mq))
    elif impl.name == "opencl-hand":
        f = cl_kernels(impl, "bk1", ("bk1",), defines)["bk1"]
        call = lambda f=f, wJ=wJ, Im=Im, q=q, Mq=Mq: f(  # noqa: E731
            (E * cq, cq), (cq, cq), np.int32(E), wJ, Im, q, Mq)
    elif impl.name in ("openmp-hand", "openmp-hand-1t"):
        f = cfunc(c_peer("bk1", defines), "bk1", ctypes.c_int, P, P, P, P)
        args = (ptr(wJ), ptr(Im), ptr(q), ptr(Mq))
        call = lambda f=f, a=args: f(E, *a)  # noqa: E731
    elif impl.name == "numpy":
        def call(Mq=Mq):
            Mq[...] = reference(np, cfg.host, nq, cq)
        reps, warm = (2, 0) if ctx.quick else (3, 0)
    fl, by = E * flops_per_element(nq, cq), E * bytes_per_element(nq, cq)

    def derive(rec: dict) -> None:
        rec["gflops_best"] = fl / rec["time_min_s"] / 1e9
        rec["gbs_best"] = by / rec["time_min_s"] / 1e9
        rec["gbs_median"] = by / rec["time_median_s"] / 1e9
    measure(ctx, impl, bench="bk1", kernel=f"bk1 N={N}", size=E * np_,
            size_label=f"E={E}", precision="fp64", metric="GDOF/s",
            work=E * np_, call=call, reps=reps, warmup=warm,
            check=cfg.checker(impl, Mq, "Mq", ref, rtol=1e-11), derive=derive,
            extra={"order": N, "nq": nq, "cubnq": cq, "elements": E,
                   "flops_per_call": fl, "bytes_per_call": by})
