"""addVectors (float, 12 bytes per entry) at 2^28, and the launch-latency probe.

Latency: the same kernel on a tiny array (1024 entries), µs per launch measured on the host
(perf_counter): *async* = many launches, then one finish, divided by the count; *sync* =
launch + finish each time.  CPU launches are synchronous, so there both mean one call.
*event-timed* (okl modes only): what timing one launch with okl's events costs, ``e0 =
s.record()``, launch, ``e1 = s.record()``, ``dev.elapsed(e0, e1)`` (which waits for e1) each
time, on the device's current stream: compare with *sync*.
"""

from __future__ import annotations

import statistics
import time

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
    omp_threads,
    pow2_label,
    ptr,
    random_array,
    round_up,
    sync,
)

BLOCK = 256
PEERS = ("okl", "cuda-hand", "cupy", "opencl-hand", "openmp-hand", "openmp-hand-1t", "numpy")


def _calls(ctx: Context, impl, n, a, b, ab):
    """One launch of addVectors (or its peer) on arrays a, b -> ab of n floats."""
    if impl.is_okl:
        k = okl_kernel(impl, "addvectors.okl", "addVectors", {"p_B": BLOCK})
        return lambda: k(n, a, b, ab)
    if impl.name == "cuda-hand":
        f = cuda_peer(ctx, "addvectors").get_function("add_vectors")
        grid, blk, N = ((n + BLOCK - 1) // BLOCK,), (BLOCK,), np.int32(n)
        return lambda: f(grid, blk, (N, a, b, ab))
    if impl.name == "opencl-hand":
        f = cl_kernels(impl, "addvectors", ("add_vectors",), {"p_B": BLOCK})["add_vectors"]
        glob, blk, N = (round_up(n, BLOCK),), (BLOCK,), np.int32(n)
        return lambda: f(glob, blk, N, a, b, ab)
    if impl.name == "cupy":
        cp = ctx.cp
        return lambda: cp.add(a, b, out=ab)
    if impl.name in ("openmp-hand", "openmp-hand-1t"):
        f = cfunc(c_peer("addvectors"), "add_vectors", I32, P, P, P)
        pa, pb, pab = ptr(a), ptr(b), ptr(ab)
        return lambda: f(n, pa, pb, pab)
    if impl.name == "numpy":
        return lambda: np.add(a, b, out=ab)
    return None


def run_addvectors(ctx: Context) -> None:
    n = 1000 + 3 if ctx.quick else 2**28
    impls = [i for i in ctx.impls if i.name in PEERS]
    if not impls:
        return
    log(f"[bench] addVectors n={pow2_label(n)}: generating inputs")
    cfg = Config(ctx, {"a": random_array(n, np.float32, 4), "b": random_array(n, np.float32, 5)})
    for impl in ctx.interleaved(impls):
        A = cfg.arrays(impl)
        ab = cfg.output(impl, "ab", n, np.float32)
        try:
            call = _calls(ctx, impl, n, A["a"], A["b"], ab)
        except Exception as e:
            from .common import record_error
            record_error(ctx, impl, e, bench="addvectors", kernel="addVectors", size=n,
                         size_label=pow2_label(n), precision="fp32", metric="GB/s")
            continue
        check = cfg.checker(impl, ab, "add", lambda xp, H: H["a"] + H["b"], rtol=1e-6)
        measure(ctx, impl, bench="addvectors", kernel="addVectors", size=n,
                size_label=pow2_label(n), precision="fp32", metric="GB/s", work=12 * n,
                call=call, check=check)
    cfg.release()


def run_latency(ctx: Context) -> None:
    """Every implementation is set up and checked first; then, per kind, the batches of all
    implementations alternate (okl, hand, okl, hand, ...), so that the host's drifts over the
    run (30 % on the GPU machines) hit every row alike and rows compare within one run."""
    n = 1024
    impls = [i for i in ctx.impls if i.name in PEERS]
    cfg = Config(ctx, {"a": random_array(n, np.float32, 6), "b": random_array(n, np.float32, 7)})
    ready = []  # (impl, base record, call, check detail)
    for impl in impls:
        A = cfg.arrays(impl)
        ab = cfg.output(impl, "ab", n, np.float32)
        base = _latency_base(impl, n)
        try:
            with omp_threads(impl.threads):
                call = _calls(ctx, impl, n, A["a"], A["b"], ab)
                call()
                sync(impl, ctx)
                ok, detail = cfg.checker(impl, ab, "add", lambda xp, H: H["a"] + H["b"],
                                         rtol=1e-6)()
            if not ok:
                for kind in _kinds(impl):
                    ctx.record(**base, kernel=f"launch-{kind}", check="FAIL",
                               check_detail=detail)
                continue
            ready.append((impl, base, call, detail))
        except Exception as e:
            _latency_error(ctx, impl, base, e)
    for kind in ("async", "sync", "event-timed"):
        rows = [r for r in ready if kind in _kinds(r[0])]
        count = 20 if ctx.quick else (2000 if kind == "async" else 500)
        reps = 2 if ctx.quick else 7
        per: dict[int, list[float]] = {id(r): [] for r in rows}
        failed: set[int] = set()
        for _ in range(reps + 1):
            for row in rows:
                if id(row) in failed:
                    continue
                impl, base, call, _ = row
                try:
                    with omp_threads(impl.threads):
                        per[id(row)].append(_batch(ctx, impl, call, kind, count))
                except Exception as e:
                    failed.add(id(row))
                    _latency_error(ctx, impl, base, e)
        for row in rows:
            if id(row) in failed:
                continue
            impl, base, _, detail = row
            times = per[id(row)][1:]  # the first batch is the warm-up
            rec = ctx.record(**base, kernel=f"launch-{kind}", check="PASS",
                             check_detail=detail, value_best=min(times),
                             value_median=statistics.median(times),
                             time_min_s=min(times) * 1e-6,
                             time_median_s=statistics.median(times) * 1e-6,
                             reps=len(times), launches_per_rep=count,
                             interleaved=True)
            log(f"[bench] launch    {kind:12} {impl.label:16} "
                f"{rec['value_best']:8.2f} us/launch (median {rec['value_median']:.2f})")
    cfg.release()


def _kinds(impl) -> tuple[str, ...]:
    return ("async", "sync") + (("event-timed",) if impl.is_okl else ())


def _latency_base(impl, n: int) -> dict:
    return dict(bench="launch", size=n, size_label=str(n), precision="fp32",
                metric="us/launch", higher_is_better=False, impl=impl.name, mode=impl.mode,
                label=impl.label, device=impl.device, device_name=impl.device_name,
                timing="perf_counter (host)")


def _latency_error(ctx: Context, impl, base: dict, error: Exception) -> None:
    from .common import record_error
    rest = {k: v for k, v in base.items()
            if k not in ("impl", "mode", "label", "device", "device_name")}
    record_error(ctx, impl, error, kernel="launch", **rest)


def _batch(ctx: Context, impl, call, kind: str, count: int) -> float:
    """Microseconds per launch over ``count`` launches of one kind."""
    sync(impl, ctx)
    t0 = time.perf_counter()
    if kind == "async":
        for _ in range(count):
            call()
        sync(impl, ctx)
    elif kind == "sync":
        for _ in range(count):
            call()
            sync(impl, ctx)
    else:
        dev = impl.okl_device
        stream = dev.current_stream
        for _ in range(count):
            e0 = stream.record()
            call()
            e1 = stream.record()
            dev.elapsed(e0, e1)
    return (time.perf_counter() - t0) / count * 1e6
