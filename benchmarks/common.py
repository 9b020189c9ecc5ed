"""Shared machinery of the benchmark harness: implementations, memory, timing, checks, results.

An *implementation* (``Impl``) is one way of running a benchmark: an okl mode ("okl" impls,
one per backend present) or a peer ("cuda-hand", "cupy", "cupy-memcpy", "opencl-hand",
"openmp-hand", "openmp-hand-1t", "numpy").  Each lives in a memory *space*:

- ``cupy``    CuPy arrays on the GPU (okl cuda/hip, hand CUDA, CuPy): timed with CUDA events;
- ``opencl``  okl Memory on the OpenCL device (okl opencl, and hand OpenCL C through pyopencl
              in okl's own context and queue): timed with queue.finish + perf_counter;
- ``host``    numpy arrays (okl serial/openmp, hand OpenMP C, numpy): timed with perf_counter.

Inputs are generated once on the host (numpy, fixed seed), uploaded once per space, and every
result is checked against a reference computed in the same space (numpy on the host, CuPy
expressions on the GPU).  A wrong answer is recorded as FAIL with no speed.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import math
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
KERNELS = HERE / "kernels"
PEERS = HERE / "peers"

ALL_MODES = ("cuda", "hip", "opencl", "openmp", "serial")
# okl's CPU build command (okl/runtime/drivers/cpu.py): $CC -O3 -march=native [-fopenmp] -std=gnu99
# -fPIC -shared ... -lm.  The OpenMP C peers are built with exactly these flags.
CPU_FLAGS = ("-O3", "-march=native", "-fopenmp", "-std=gnu99", "-fPIC", "-shared")
# okl's NVRTC options for cuda mode (okl/runtime/drivers/cuda.py); the CUDA peers get the same.
NVRTC_FLAGS = ("-std=c++17",)
# okl's OpenCL build options (okl/runtime/drivers/opencl.py, before the Device's
# compiler_flags); the OpenCL peers get the same.
CL_FLAGS = ("-cl-std=CL1.2",)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# implementations


@dataclass
class Impl:
    name: str            # "okl", "cuda-hand", "opencl-hand", "openmp-hand", "numpy", ...
    mode: str | None     # okl mode for okl impls
    device: str          # "gpu" or "cpu" (what runs the kernel)
    space: str           # "cupy", "opencl", "host"
    okl_device: object = None  # okl impls; opencl-hand: okl's opencl Device (context, queue)
    device_name: str = ""
    threads: int | None = None  # openmp-hand-1t: 1

    @property
    def label(self) -> str:
        return f"okl {self.mode}" if self.name == "okl" else self.name

    @property
    def is_okl(self) -> bool:
        return self.name == "okl"

    @property
    def timing(self) -> str:
        return {"cupy": "cuda-event", "opencl": "queue.finish+perf_counter",
                "host": "perf_counter"}[self.space]


def cupy_or_none():
    try:
        import cupy as cp
        if cp.cuda.runtime.getDeviceCount() < 1:
            return None
        return cp
    except Exception:
        return None


def _opencl_choice(pref: str):
    """(platform_id, device_id, device type) of the OpenCL device to use, or None."""
    try:
        import pyopencl as cl
        platforms = cl.get_platforms()
    except Exception:
        return None
    found = []
    for pid, p in enumerate(platforms):
        try:
            devices = p.get_devices()
        except Exception:
            continue
        for did, d in enumerate(devices):
            kind = "gpu" if d.type & cl.device_type.GPU else "cpu"
            found.append((pid, did, kind))
    if not found:
        return None
    if pref in ("gpu", "cpu"):
        match = [f for f in found if f[2] == pref]
        return match[0] if match else None
    gpus = [f for f in found if f[2] == "gpu"]
    return (gpus or found)[0]


#: rounds of a CPU measurement.  On the 2-core VM the memory bandwidth of two threads
#: flips between about 37 and 60 GB/s and keeps each state for a second or more; a row's
#: implementations are timed in turn within a round (:func:`_time_row`), and six rounds
#: spread each row's samples over six moments of the run.
CPU_ROUNDS = 6


@dataclass
class Context:
    modes: list[str]
    quick: bool = False
    opencl_pref: str = "auto"
    only: set[str] | None = None          # bench names to run (None: all)
    results: list[dict] = field(default_factory=list)
    builds: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    impls: list[Impl] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    cp: object = None
    merge: dict = field(default_factory=dict)
    pending: list = field(default_factory=list)  # CPU measurements waiting for flush()

    def setup(self) -> None:
        import okl
        self.cp = cupy_or_none()
        for mode in self.modes:
            props = {}
            if mode == "opencl":
                choice = _opencl_choice(self.opencl_pref)
                if choice is None:
                    self.skipped[mode] = "no OpenCL device (pyopencl or platform missing)"
                    continue
                props = {"platform_id": choice[0], "device_id": choice[1]}
            try:
                dev = okl.Device(mode, **props)
            except Exception as e:
                self.skipped[mode] = f"{type(e).__name__}: {e}"
                log(f"[bench] okl mode {mode} unavailable: {e}")
                continue
            if mode in ("cuda", "hip"):
                device, space = "gpu", "cupy"
            elif mode == "opencl":
                device, space = choice[2], "opencl"
            else:
                device, space = "cpu", "host"
            self.impls.append(Impl("okl", mode, device, space, dev, dev.name))
            if mode == "opencl":
                # hand OpenCL C on the very same device, context and queue as okl opencl
                self.impls.append(Impl("opencl-hand", None, device, space, dev, dev.name))
        devices = {i.device for i in self.impls}
        if "gpu" in devices and self.cp is not None:
            name = gpu_name(self.cp)
            self.impls += [Impl("cuda-hand", None, "gpu", "cupy", device_name=name),
                           Impl("cupy", None, "gpu", "cupy", device_name=name),
                           Impl("cupy-memcpy", None, "gpu", "cupy", device_name=name)]
        if "cpu" in devices:
            name = cpu_name()
            self.impls += [Impl("openmp-hand", None, "cpu", "host", device_name=name),
                           Impl("numpy", None, "cpu", "host", device_name=name)]
            if any(i.mode == "serial" for i in self.impls):
                self.impls.append(Impl("openmp-hand-1t", None, "cpu", "host", device_name=name,
                                       threads=1))

    def rounds(self, impl: Impl) -> int:
        """CPU timings drift (shared VM, turbo, neighbours): CPU implementations are measured
        in :data:`CPU_ROUNDS` rounds, each with that share of the repetition budget, so that
        okl and its peers are interleaved in time; GPU timings are stable and get one round."""
        return 1 if self.quick or impl.device == "gpu" else CPU_ROUNDS

    def max_rounds(self, impls) -> int:
        return max((self.rounds(i) for i in impls), default=1)

    def interleaved(self, impls):
        """``impls`` once per round (each as often as its rounds), the round's waiting CPU
        measurements timed together at its end (:func:`flush`)."""
        for r in range(self.max_rounds(impls)):
            for impl in impls:
                if r < self.rounds(impl):
                    yield impl
            flush(self)

    def okl_impls(self) -> list[Impl]:
        return [i for i in self.impls if i.is_okl]

    def peers(self, *names: str) -> list[Impl]:
        return [i for i in self.impls if i.name in names]

    def record(self, **kw) -> dict:
        self.results.append(kw)
        return kw


def gpu_name(cp) -> str:
    prop = cp.cuda.runtime.getDeviceProperties(0)
    name = prop["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


def cpu_name() -> str:
    from okl.runtime.properties import host_cpu

    return host_cpu()


# ---------------------------------------------------------------------------------------------
# memory


class Space:
    """Uploads host arrays to one impl's memory space, once per benchmark configuration.

    Host arrays (okl serial and openmp, the C peers, numpy) are 64-byte aligned copies, shared
    by every implementation: what a C program allocates with ``aligned_alloc``, an OCCA
    program gets from ``occa::malloc`` and okl's CPU Device gives (``Device.zeros``,
    ``asarray(copy=True)``).  numpy's own large arrays start 16 bytes past a page, which cost
    okl's unrolled lane loops 10 % against the C peers' one-chain loops (``../README.md``)."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self._cache: dict[tuple, object] = {}

    def put(self, impl: Impl, name: str, host: np.ndarray):
        key = (self._space_key(impl), name)
        buf = self._cache.get(key)
        if buf is None:
            buf = self.upload(impl, host)
            self._cache[key] = buf
        return buf

    def _space_key(self, impl: Impl):
        # okl opencl and opencl-hand share one context: they share uploads and outputs
        return ("opencl", id(impl.okl_device)) if impl.space == "opencl" else (impl.space,)

    def upload(self, impl: Impl, host: np.ndarray):
        if impl.space == "cupy":
            return self.ctx.cp.asarray(host)
        if impl.space == "opencl":
            return impl.okl_device.asarray(host)
        from okl.runtime.drivers.cpu import aligned_copy

        return aligned_copy(host)

    def empty(self, impl: Impl, shape, dtype):
        if impl.space == "cupy":
            return self.ctx.cp.zeros(shape, dtype)
        if impl.space == "opencl":
            return impl.okl_device.zeros(shape, dtype)
        from okl.runtime.drivers.cpu import aligned_zeros

        return aligned_zeros(shape, dtype)

    def zero(self, impl: Impl, buf) -> None:
        if impl.space == "cupy":
            buf.fill(0)
        elif impl.space == "opencl":
            buf.set(np.zeros(buf.shape, buf.dtype))
        else:
            buf[...] = 0

    def get(self, impl: Impl, buf) -> np.ndarray:
        if impl.space == "cupy":
            return buf.get()
        if impl.space == "opencl":
            return buf.get()
        return buf

    def clear(self) -> None:
        self._cache.clear()
        if self.ctx.cp is not None:
            self.ctx.cp.get_default_memory_pool().free_all_blocks()


def xp_of(impl: Impl, ctx: Context):
    """Array module in which results of `impl` are checked (the space's own)."""
    return ctx.cp if impl.space == "cupy" else np


def as_checkable(impl: Impl, ctx: Context, buf):
    """The result buffer as an array of the checking module (copied back for OpenCL)."""
    if impl.space == "opencl":
        return buf.get()
    return buf


# ---------------------------------------------------------------------------------------------
# timing


def sync(impl: Impl, ctx: Context) -> None:
    if impl.space == "cupy":
        ctx.cp.cuda.get_current_stream().synchronize()
    elif impl.space == "opencl":
        impl.okl_device.finish()


def time_calls(impl: Impl, ctx: Context, call, *, warmup: int | None = None,
               reps: int | None = None, budget: float | None = None, pre=None) -> list[float]:
    """Seconds per call, one entry per timed repetition (after warm-up).

    GPU (cupy space): a CUDA event pair around every call on the current stream.  OpenCL:
    finish, perf_counter, call, finish.  Host: perf_counter around the (synchronous) call.
    reps adapts to the kernel's duration: as many as fit in `budget` seconds, within bounds.
    `pre()` (e.g. zeroing an accumulator) runs before every call, outside the timed region.
    """
    pre = pre or (lambda: None)
    gpu = impl.space == "cupy"
    _warm(impl, ctx, call, pre, warmup)
    if reps is None:
        reps = _repetitions(impl, ctx, call, pre, budget)
    if gpu:
        cp = ctx.cp
        events = [(cp.cuda.Event(), cp.cuda.Event()) for _ in range(reps)]
        for start, end in events:
            pre()
            start.record()
            call()
            end.record()
        events[-1][1].synchronize()
        return [cp.cuda.get_elapsed_time(s, e) * 1e-3 for s, e in events]
    return [_time_one(impl, ctx, call, pre) for _ in range(reps)]


def _warm(impl: Impl, ctx: Context, call, pre, warmup: int | None) -> None:
    if warmup is None:
        warmup = 1 if ctx.quick else (5 if impl.space == "cupy" else 2)
    for _ in range(warmup):
        pre()
        call()
    sync(impl, ctx)


def _repetitions(impl: Impl, ctx: Context, call, pre, budget: float | None) -> int:
    """As many repetitions as fit ``budget`` seconds (one call timed to see), within bounds."""
    if ctx.quick:
        return 2
    gpu = impl.space == "cupy"
    one = max(_time_one(impl, ctx, call, pre), 1e-7)
    budget = budget or (0.4 if gpu else 2.0 / ctx.rounds(impl))
    lo, hi = (30, 200) if gpu else (10 // ctx.rounds(impl), 50 // ctx.rounds(impl))
    if not gpu:  # a short CPU call gets more repetitions, up to 0.1 s of them: its best
        # time is then one that no wake-up of the OpenMP team (tens of us on a VM) or
        # neighbour on the machine hit
        hi = max(hi, min(500 // ctx.rounds(impl), int(0.1 / one)))
    return int(min(max(budget / one, lo), hi))


def _time_one(impl: Impl, ctx: Context, call, pre) -> float:
    """Seconds of one call, its start and end synchronised (host clock)."""
    pre()
    sync(impl, ctx)
    t0 = time.perf_counter()
    call()
    sync(impl, ctx)
    return time.perf_counter() - t0


@contextlib.contextmanager
def omp_threads(n: int | None):
    """Temporarily set the OpenMP thread count of this (Python) thread; None: no change."""
    if n is None:
        yield
        return
    gomp = _libgomp()
    if gomp is None:
        yield
        return
    old = gomp.omp_get_max_threads()
    gomp.omp_set_num_threads(n)
    try:
        yield
    finally:
        gomp.omp_set_num_threads(old)


_GOMP = []


def _libgomp():
    if not _GOMP:
        try:
            _GOMP.append(ctypes.CDLL("libgomp.so.1"))
        except OSError:
            _GOMP.append(None)
    return _GOMP[0]


# ---------------------------------------------------------------------------------------------
# checking


def compare(xp, out, ref, *, rtol: float, atol: float = 0.0) -> tuple[bool, str]:
    """Every entry within atol + rtol * max|ref| (a norm-wise relative check, robust to
    cancellation in single entries).  NaN or inf anywhere in the result fails (the error is
    then not finite).  Works in the arrays' own precision unless their dtypes differ."""
    out = xp.asarray(out).ravel()
    ref = xp.asarray(ref).ravel()
    if out.shape != ref.shape:
        return False, f"shape {out.shape} != {ref.shape}"
    if out.dtype != ref.dtype:
        out, ref = out.astype(xp.float64), ref.astype(xp.float64)
    if not ref.size:
        return True, "empty"
    diff = out - ref
    xp.abs(diff, out=diff)
    err = float(diff.max())
    del diff
    scale = max(float(ref.max()), -float(ref.min()))
    tol = atol + rtol * scale
    ok = math.isfinite(err) and err <= tol
    rel = err / scale if scale else err
    return ok, f"max |err| {err:.3g} (rel. to max|ref| {rel:.2e}, tol {tol:.3g})"


# ---------------------------------------------------------------------------------------------
# running one measurement


@dataclass
class Pending:
    """A CPU measurement checked once and waiting to be timed beside its row's others."""

    impl: Impl
    base: dict
    key: tuple
    call: object
    check: object
    pre: object
    work: float
    unit_scale: float
    reps: int | None
    warmup: int | None
    budget: float | None
    threads: int | None  # the OpenMP threads it runs on (None: as set)
    derive: object
    detail: str


def measure(ctx: Context, impl: Impl, *, bench: str, kernel: str, size: int, size_label: str,
            precision: str, metric: str, work: float, call, check, higher_is_better=True,
            unit_scale: float = 1e9, extra: dict | None = None, reps=None, warmup=None,
            budget=None, threads=None, pre=None, derive=None) -> None:
    """Run `call` once, check it, then time it; record a result.

    work / time / unit_scale = metric value (e.g. bytes / s / 1e9 = GB/s).  `check()` returns
    (ok, detail) after one run of `call`; `pre()` runs before every call, untimed;
    `derive(rec)` adds fields computed from a passing record's times.

    A CPU implementation (outside --quick) is only checked here: its timing waits for
    :func:`flush` (the end of the round, :meth:`Context.interleaved`), which times every
    implementation of the same row call by call in turn (:func:`_time_row`)."""
    pre_ = pre or (lambda: None)
    base = dict(bench=bench, kernel=kernel, size=int(size), size_label=size_label,
                precision=precision, impl=impl.name, mode=impl.mode, label=impl.label,
                device=impl.device, device_name=impl.device_name, metric=metric,
                higher_is_better=higher_is_better, timing=impl.timing, **(extra or {}))
    key = (bench, kernel, size_label, precision, impl.label, impl.device)
    if warmup is None and key in ctx.merge:
        warmup = 1  # a later round: the first round warmed caches, pages and the build
    deferred = not ctx.quick and impl.device == "cpu"
    nthreads = threads if threads is not None else impl.threads
    try:
        with omp_threads(nthreads):
            pre_()
            call()
            sync(impl, ctx)
            ok, detail = check()
            if not ok:
                log(f"[bench] FAIL {bench}/{kernel} {size_label} {precision} {impl.label}: "
                    f"{detail}")
                _fail(ctx, base, "FAIL", detail)
                return
            if deferred:
                ctx.pending.append(Pending(impl, base, key, call, check, pre_, work,
                                           unit_scale, reps, warmup, budget, nthreads,
                                           derive, detail))
                return
            times = time_calls(impl, ctx, call, reps=reps, warmup=warmup, budget=budget,
                               pre=pre)
            # the last timed run must still be right (catches races that depend on timing)
            sync(impl, ctx)
            ok2, detail2 = check()
            if not ok2:
                _fail(ctx, base, "FAIL", "after timing: " + detail2)
                return
    except Exception as e:
        _error(ctx, base, e)
        return
    _record(ctx, base, key, times, detail, work, unit_scale, derive)


def flush(ctx: Context) -> None:
    """Time the waiting CPU measurements, each row's implementations in turn."""
    pending, ctx.pending = ctx.pending, []
    rows: dict[tuple, list[Pending]] = {}
    for p in pending:
        rows.setdefault(p.key[:4], []).append(p)  # (bench, kernel, size, precision)
    for entries in rows.values():
        _time_row(ctx, entries)


def _time_row(ctx: Context, entries: list[Pending]) -> None:
    """Warm each implementation of one row, then time them call by call in turn, each turn
    in a new random order, so that every implementation sees the same states of the machine
    and follows each of the others as often (in a fixed order the hand OpenCL always ran
    right after okl's OpenCL, on PoCL's threads that okl's call had just woken: airfoil's
    adt_calc measured 0.83-0.88 of it, 1.07 in a script that alternated the two); then
    each runs once more and is checked (they may share their output arrays).  On the 2-core
    VM the memory bandwidth of two threads flips between about 37 and 60 GB/s and keeps
    each state for seconds: timed one implementation after the other, okl's stream mul FP64
    sat in the slow state in five of six rounds and the same loop's hand C in two (0.95 of
    it); timed in turn they differ by 1 %."""
    times: dict[int, list[float]] = {}
    reps: dict[int, int] = {}
    live = []
    for e in entries:
        try:
            with omp_threads(e.threads):
                _warm(e.impl, ctx, e.call, e.pre, e.warmup)
                reps[id(e)] = e.reps if e.reps is not None else \
                    _repetitions(e.impl, ctx, e.call, e.pre, e.budget)
        except Exception as ex:
            _error(ctx, e.base, ex)
            continue
        times[id(e)] = []
        live.append(e)
    order = random.Random(0)
    for _ in range(max(reps.values(), default=0)):
        turn = list(live)
        order.shuffle(turn)
        for e in turn:
            if id(e) not in times or len(times[id(e)]) >= reps[id(e)]:
                continue
            try:
                with omp_threads(e.threads):
                    times[id(e)].append(_time_one(e.impl, ctx, e.call, e.pre))
            except Exception as ex:
                _error(ctx, e.base, ex)
                del times[id(e)]
    for e in live:
        if id(e) not in times:
            continue
        try:
            with omp_threads(e.threads):
                e.pre()
                e.call()
                sync(e.impl, ctx)
                ok, detail = e.check()
        except Exception as ex:
            _error(ctx, e.base, ex)
            continue
        if not ok:
            _fail(ctx, e.base, "FAIL", "after timing: " + detail)
            continue
        _record(ctx, e.base, e.key, times[id(e)], e.detail, e.work, e.unit_scale, e.derive,
                in_turns=True)


def _error(ctx: Context, base: dict, e: Exception) -> None:
    tb = traceback.format_exc(limit=3)
    log(f"[bench] ERROR {base['bench']}/{base['kernel']} {base['size_label']} "
        f"{base['precision']} {base['label']}: {e}")
    _fail(ctx, base, "ERROR", f"{type(e).__name__}: {e}", traceback=tb)


def _record(ctx: Context, base: dict, key: tuple, times: list[float], detail: str,
            work: float, unit_scale: float, derive, in_turns: bool = False) -> None:
    """Record passing times, pooled with the earlier rounds' of the same configuration.

    ``round_reps``: how many of ``times_s`` each round gave, in order.  ``in_turns``: the
    times came from :func:`_time_row`, where the i-th time of a round of every
    implementation of the row came from the same turn (while both had repetitions left), so
    that two of them can be compared turn by turn (report.paired_ratio)."""
    prev = ctx.merge.get(key)
    rounds = 1
    round_reps = [len(times)]
    if prev is not None and prev.get("check") != "PASS":
        return  # a failure in an earlier round stands
    if prev is not None:  # a later round: pool the times
        times = prev["times_s"] + times
        rounds = prev["rounds"] + 1
        round_reps = prev["round_reps"] + round_reps
        ctx.results.remove(prev)
    tmin, tmed = min(times), statistics.median(times)
    if base["higher_is_better"]:
        best, med = work / tmin / unit_scale, work / tmed / unit_scale
    else:  # a time per unit of work (e.g. microseconds per launch)
        best, med = tmin / work * unit_scale, tmed / work * unit_scale
    rec = ctx.record(**base, check="PASS", check_detail=detail, value_best=best,
                     value_median=med, time_min_s=tmin, time_median_s=tmed, reps=len(times),
                     rounds=rounds, round_reps=round_reps, in_turns=in_turns,
                     times_s=[float(t) for t in times])
    ctx.merge[key] = rec
    if derive is not None:
        derive(rec)
    log(f"[bench] {base['bench']:9} {base['kernel']:12} {base['size_label']:>10} "
        f"{base['precision']:4} {base['label']:16} {best:10.4g} {base['metric']} "
        f"(median {med:.4g}){f'  [round {rounds}]' if rounds > 1 else ''}")


def _fail(ctx: Context, base: dict, check: str, detail: str, **kw) -> dict:
    """Record a failure; it replaces a PASS of the same configuration from an earlier round."""
    key = (base["bench"], base["kernel"], base["size_label"], base["precision"], base["label"],
           base["device"])
    prev = ctx.merge.pop(key, None)
    if prev is not None and prev in ctx.results:
        ctx.results.remove(prev)
    rec = ctx.record(**base, check=check, check_detail=detail, **kw)
    ctx.merge[key] = rec
    return rec


def record_error(ctx: Context, impl: Impl, e: Exception, **base) -> None:
    log(f"[bench] ERROR {base.get('bench')}/{base.get('kernel')} {impl.label}: {e}")
    ctx.record(**base, impl=impl.name, mode=impl.mode, label=impl.label, device=impl.device,
               device_name=impl.device_name, check="ERROR",
               check_detail=f"{type(e).__name__}: {e}", traceback=traceback.format_exc(limit=4))


# ---------------------------------------------------------------------------------------------
# peers


_PEER_LIBS: dict[tuple, ctypes.CDLL] = {}
_PEER_DIR = []


def c_compiler() -> str:
    return os.environ.get("CC") or "cc"


def c_peer(name: str, defines: dict | None = None) -> ctypes.CDLL:
    """Build peers/openmp/<name>.c with okl's CPU flags (+ -D defines) and load it."""
    defines = defines or {}
    key = (name, tuple(sorted((k, str(v)) for k, v in defines.items())))
    lib = _PEER_LIBS.get(key)
    if lib is not None:
        return lib
    if not _PEER_DIR:
        _PEER_DIR.append(tempfile.mkdtemp(prefix="okl-bench-peers-"))
    src = PEERS / "openmp" / f"{name}.c"
    tag = hashlib.sha256(repr(key).encode()).hexdigest()[:12]
    out = os.path.join(_PEER_DIR[0], f"{name}-{tag}.so")
    cmd = [c_compiler(), *CPU_FLAGS, *[f"-D{k}={v}" for k, v in defines.items()], str(src),
           "-o", out, "-lm"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"peer build failed: {' '.join(cmd)}\n{r.stderr}")
    lib = ctypes.CDLL(out)
    _PEER_LIBS[key] = lib
    return lib


def cfunc(lib, name: str, *argtypes, restype=None):
    fn = getattr(lib, name)
    fn.argtypes = list(argtypes)
    fn.restype = restype
    return fn


def ptr(a: np.ndarray) -> int:
    return a.ctypes.data


P = ctypes.c_void_p
I32 = ctypes.c_int


def ctype_of(dtype) -> type:
    return ctypes.c_double if np.dtype(dtype) == np.float64 else ctypes.c_float


_CUDA_MODULES: dict[tuple, object] = {}


def cuda_peer(ctx: Context, name: str, defines: dict | None = None):
    """CuPy RawModule of peers/cuda/<name>.cu with okl's NVRTC options plus -D defines."""
    defines = defines or {}
    key = (name, tuple(sorted((k, str(v)) for k, v in defines.items())))
    mod = _CUDA_MODULES.get(key)
    if mod is None:
        code = (PEERS / "cuda" / f"{name}.cu").read_text()
        options = (*NVRTC_FLAGS, *[f"-D{k}={v}" for k, v in defines.items()])
        mod = ctx.cp.RawModule(code=code, options=options)
        _CUDA_MODULES[key] = mod
    return mod


_CL_PROGRAMS: dict[tuple, object] = {}


def opencl_peer(impl: Impl, name: str, defines: dict | None = None):
    """pyopencl Program of peers/opencl/<name>.cl, built in the context of okl's opencl Device
    that `impl` carries (so on the same device, and launched on the same queue, as the okl
    opencl rows), with okl's OpenCL options (CL_FLAGS and the Device's compiler_flags) plus
    -D defines."""
    import pyopencl as cl
    backend = impl.okl_device.backend
    defines = defines or {}
    key = (id(backend.context), name, tuple(sorted((k, str(v)) for k, v in defines.items())))
    prog = _CL_PROGRAMS.get(key)
    if prog is None:
        src = (PEERS / "opencl" / f"{name}.cl").read_text()
        options = [*CL_FLAGS, *backend.flags, *[f"-D{k}={v}" for k, v in defines.items()]]
        prog = cl.Program(backend.context, src).build(options=options)
        _CL_PROGRAMS[key] = prog
    return prog


def opencl_has_extension(impl: Impl, ext: str) -> bool:
    return ext in impl.okl_device.backend.cl_device.extensions.split()


class ClKernel:
    """One kernel of an OpenCL peer program, enqueued on okl's queue: k(global, local, *args)
    with okl Memory (passed as its cl.Buffer) and numpy scalars as arguments."""

    def __init__(self, impl: Impl, program, name: str):
        import pyopencl as cl
        self._cl = cl
        self.kernel = cl.Kernel(program, name)
        self.queue = impl.okl_device.backend.queue

    def __call__(self, global_size: tuple, local_size: tuple, *args) -> None:
        self.kernel.set_args(*[getattr(a, "handle", a) for a in args])
        self._cl.enqueue_nd_range_kernel(self.queue, self.kernel, global_size, local_size)


def cl_kernels(impl: Impl, name: str, kernels, defines: dict | None = None) -> dict:
    prog = opencl_peer(impl, name, defines)
    return {k: ClKernel(impl, prog, k) for k in kernels}


def round_up(n: int, m: int) -> int:
    return (n + m - 1) // m * m


# ---------------------------------------------------------------------------------------------
# okl kernels


def okl_kernel(impl: Impl, file: str, name: str, defines: dict):
    return impl.okl_device.build_kernel(KERNELS / file, name, defines=defines)


def okl_arg(impl: Impl, buf):
    """okl accepts numpy (CPU), CuPy (cuda/hip) and okl Memory (all) directly."""
    return buf


# ---------------------------------------------------------------------------------------------
# machine description


def machine_info(ctx: Context) -> dict:
    info = {"hostname": platform.node(), "platform": platform.platform(),
            "python": sys.version.split()[0], "cpu": cpu_name(), "cpus": os.cpu_count(),
            "env": {k: os.environ.get(k) for k in ("OMP_NUM_THREADS", "OMP_PROC_BIND",
                                                   "OMP_WAIT_POLICY", "OKL_CACHE_DIR",
                                                   "CC", "POCL_KERNEL_CACHE",
                                                   "OCL_ICD_VENDORS")}}
    try:
        with open("/proc/meminfo") as f:
            info["mem_gb"] = round(int(f.readline().split()[1]) / 2**20, 1)
    except OSError:
        pass
    cc = shutil.which(c_compiler())
    if cc:
        r = subprocess.run([cc, "--version"], capture_output=True, text=True)
        info["cc"] = (r.stdout or r.stderr).splitlines()[0] if (r.stdout or r.stderr) else cc
    cp = ctx.cp
    if cp is not None:
        try:
            prop = cp.cuda.runtime.getDeviceProperties(0)
            info["gpu"] = {"name": gpu_name(cp), "sm": f"{prop['major']}{prop['minor']}",
                           "multiprocessors": prop["multiProcessorCount"],
                           "memory_gb": round(prop["totalGlobalMem"] / 2**30, 1),
                           "cuda_runtime": cp.cuda.runtime.runtimeGetVersion(),
                           "cuda_driver": cp.cuda.runtime.driverGetVersion(),
                           "nvrtc": ".".join(map(str, cp.cuda.nvrtc.getVersion()))}
        except Exception as e:
            info["gpu"] = {"error": str(e)}
    for impl in ctx.okl_impls():
        if impl.mode == "opencl":
            info["opencl_device"] = impl.device_name
    return info


def versions() -> dict:
    import okl
    out = {"okl": okl.__version__, "numpy": np.__version__}
    for mod in ("cupy", "pyopencl", "pycparser", "matplotlib"):
        try:
            m = __import__(mod)
            out[mod] = getattr(m, "__version__", None) or str(getattr(m, "VERSION", ""))
        except Exception:
            out[mod] = None
    try:
        from okl.version import translator_digest
        out["okl_translator"] = translator_digest()[:16]
    except Exception:
        pass
    try:
        r = subprocess.run(["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"],
                           capture_output=True, text=True)
        out["git"] = r.stdout.strip()
        r = subprocess.run(["git", "-C", str(HERE), "status", "--porcelain", "--", "../okl"],
                           capture_output=True, text=True)
        out["okl_dirty"] = bool(r.stdout.strip())
    except OSError:
        pass
    return out


# ---------------------------------------------------------------------------------------------
# one benchmark configuration: host inputs, per-space uploads and references


class Config:
    """Host inputs of one configuration, their uploads per space, and cached references.

    ``ref(impl, name, fn)``: fn(xp, arrays) -> reference, computed in the impl's checking
    space (CuPy on the GPU from the uploaded inputs; numpy on the host otherwise) and cached.
    """

    def __init__(self, ctx: Context, host: dict[str, np.ndarray]):
        self.ctx = ctx
        self.host = host
        self.space = Space(ctx)
        self._refs: dict[tuple, object] = {}

    def arrays(self, impl: Impl) -> dict:
        return {k: self.space.put(impl, k, v) for k, v in self.host.items()}

    def ref(self, impl: Impl, name: str, fn):
        gpu = impl.space == "cupy"
        key = (gpu, name)
        if key not in self._refs:
            if gpu:
                cp = self.ctx.cp
                arrays = {k: self.space.put(impl, k, v) for k, v in self.host.items()}
                self._refs[key] = fn(cp, arrays)
            else:
                self._refs[key] = fn(np, self.host)
        return self._refs[key]

    def checker(self, impl: Impl, out, name: str, fn, *, rtol: float, atol: float = 0.0):
        """A check() for measure(): compares `out` with reference `name`."""
        def check():
            ref = self.ref(impl, name, fn)
            got = as_checkable(impl, self.ctx, out)
            xp = self.ctx.cp if impl.space == "cupy" else np
            return compare(xp, got, ref, rtol=rtol, atol=atol)
        return check

    def output(self, impl: Impl, name: str, shape, dtype):
        """An output buffer shared by every implementation in the same memory space (so okl and
        its peers write to the same pages: no allocation-order effects such as huge pages
        granted to one array and not another), poisoned with NaN each time an implementation
        takes it, so a kernel that writes nothing cannot inherit another's correct result."""
        key = (self.space._space_key(impl), "out:" + name, tuple(np.atleast_1d(shape)),
               np.dtype(dtype).str)
        buf = self.space._cache.get(key)
        if buf is None:
            buf = self.space.empty(impl, shape, dtype)
            self.space._cache[key] = buf
        poison = np.nan if np.dtype(dtype).kind == "f" else 0
        if impl.space == "cupy":
            buf.fill(poison)
        elif impl.space == "opencl":
            import pyopencl as cl
            cl.enqueue_fill_buffer(impl.okl_device.backend.queue, buf.handle,
                                   np.array(poison, buf.dtype), 0, buf.nbytes)
        else:
            buf.fill(poison)
        return buf

    def release(self) -> None:
        self.space.clear()
        self._refs.clear()
        self.host = {}
        if self.ctx.cp is not None:
            self.ctx.cp.get_default_memory_pool().free_all_blocks()


def rng(seed: int = 12345) -> np.random.Generator:
    return np.random.default_rng(seed)


def random_array(n, dtype, seed: int, low=0.0, high=1.0) -> np.ndarray:
    g = rng(seed)
    dtype = np.dtype(dtype)
    if dtype in (np.float32, np.float64):
        a = g.random(n, dtype=dtype)
        if (low, high) != (0.0, 1.0):
            a *= dtype.type(high - low)
            a += dtype.type(low)
        return a
    raise TypeError(dtype)


def pow2_label(n: int) -> str:
    if n > 0 and n & (n - 1) == 0:
        return f"2^{n.bit_length() - 1}"
    return str(n)
