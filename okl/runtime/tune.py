"""Autotuning: ``dev.tune(path, kernel, space={"p_B": [64, 128, 256]}, args=...)``.

OKL kernels are tuned through defines (``@tile(p_B, @outer, @inner)``, ``@inner(p_Nq)``,
unroll counts...), and which values are fastest depends on the device, the compiler and the
problem size: nekRS times kernel variants at start-up by hand, the INS benchmark sweeps its
block shapes by hand.  The tuner does that sweep once per device and remembers the answer:

1. every *variant* (a point of the cartesian product of ``space``, filtered by
   ``constraint``) is built with the fixed ``defines`` plus its own; one that does not
   translate, build or launch (too many threads per block for the device, an ``#error`` of the
   kernel's own checks) is skipped and reported, not fatal unless every variant fails;
2. each variant runs on its own copies of the arguments, so that one variant's outputs never
   feed another; after one launch every array is read back and compared with what the first
   variant that ran computed (floats within ``rtol``/``atol``, everything else exactly).  A
   variant that disagrees is excluded and reported: the define changed the answer, which is a
   bug in the kernel (a tail not covered, a size assumed) or a tolerance too tight;
3. the variants that agree are timed with the device's events (okl.runtime.stream: CUDA/HIP
   events, OpenCL profiling markers, the host clock around the synchronous launch on serial
   and openmp) on one shared set of copies (each variant's own copies would sit in memory
   placed and cached their own way: on a CPU that moved medians by more than the variants
   differ) after a warm-up, in interleaved rounds -- variant A, B, C, then A, B, C again
   -- so that a slow spell of a shared machine hits every variant, not one; the median of the
   launches ranks them.  The variants within 10 % of the best are then timed again, as long
   (the order of close contenders is what the choice depends on, and noise can swap it);
4. the winner is stored in okl's cache (level ``tuning``) under a key made of the device
   (mode, name, architecture, compiler and its flags, OpenMP threads), the kernel's name, the
   OKL source's SHA-256, the fixed defines, the include folders, the compiler flags, the
   variants and the arguments' shapes, dtypes and integer values, so that the next process
   asking the same question gets the answer without timing anything (``force=True`` tunes
   again).  The entry also holds the SHA-256 of the winner's translated source, which includes
   every ``#include``\\ d file: a header edited since, or a translator that generates other
   code, makes the entry stale and the kernel is tuned again.

The result is a :class:`TuneResult`, attached to the tuned okl.Kernel as ``kernel.tuning``.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import math
import os
import re
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ArgumentError, OKLError
from ..parser.cpp.defines import define_texts
from ..parser.source import read_source
from ..version import __version__
from .cache import Cache
from .memory import Memory
from .properties import openmp_threads
from .verbose import say

#: seconds of timed launches per variant when ``repeat`` is not given (split over the rounds)
BUDGET_S = 1.0
#: timed launches per variant when ``repeat`` is not given: at least, at most
MIN_REPEAT, MAX_REPEAT = 9, 2000
#: interleaved timing rounds (each variant gets a third of its launches per round)
ROUNDS = 3
#: variants whose median is within this fraction of the best's are timed again (at most
#: FINALISTS of them), with as many launches again
FINAL_MARGIN, FINALISTS = 0.10, 4
#: warm-up launches per variant before timing (after the launch that is checked)
WARMUP = 3
#: the cache level of tuning results (okl.runtime.cache.LEVELS)
LEVEL = "tuning"

log = logging.getLogger("okl")

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass
class Variant:
    """One point of the space: its defines, what happened to it and its median launch time.

    ``status`` is ``"ok"`` (it ran, agreed with the reference and was timed), ``"failed"``
    (it did not translate, build or launch: ``reason`` says why) or ``"differs"`` (its
    results differ from the reference variant's: ``reason`` names the first element)."""

    point: dict[str, Any]
    status: str = "ok"
    seconds: float | None = None  # median seconds per launch (status "ok" only)
    launches: int = 0  # how many launches were timed
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_json(self) -> dict:
        return {"point": self.point, "status": self.status, "seconds": self.seconds,
                "launches": self.launches, "reason": self.reason}

    @classmethod
    def from_json(cls, data: dict) -> Variant:
        return cls(dict(data["point"]), str(data["status"]), data.get("seconds"),
                   int(data.get("launches", 0)), str(data.get("reason", "")))


@dataclass
class TuneResult:
    """What ``Device.tune`` found: ``best`` (the winning point, a dict of defines),
    ``seconds`` (its median seconds per launch), ``table`` (every :class:`Variant`, in the
    order of the space), ``from_cache`` (the answer was stored by an earlier tuning and
    nothing was timed now) and ``key`` (the cache key: ``oklc cache`` counts the entries)."""

    kernel: str
    mode: str
    device: str
    best: dict[str, Any]
    seconds: float
    table: list[Variant] = field(default_factory=list)
    key: str = ""
    from_cache: bool = False
    fixed: dict[str, Any] = field(default_factory=dict)  # the fixed defines

    @property
    def defines(self) -> dict[str, Any]:
        """Everything the tuned kernel was built with: the fixed defines and the winner's."""
        return {**self.fixed, **self.best}

    def to_json(self) -> dict:
        return {"kernel": self.kernel, "mode": self.mode, "device": self.device,
                "best": self.best, "seconds": self.seconds, "key": self.key,
                "from_cache": self.from_cache, "fixed": self.fixed,
                "table": [v.to_json() for v in self.table]}

    @classmethod
    def from_json(cls, data: dict) -> TuneResult:
        return cls(str(data["kernel"]), str(data["mode"]), str(data["device"]),
                   dict(data["best"]), float(data["seconds"]),
                   [Variant.from_json(v) for v in data["table"]], str(data.get("key", "")),
                   bool(data.get("from_cache", False)), dict(data.get("fixed") or {}))

    def __str__(self) -> str:
        names = list(self.best) or (list(self.table[0].point) if self.table else [])
        cells = [[_text(v.point.get(n)) for n in names] for v in self.table]
        widths = [max([len(n)] + [len(c[i]) for c in cells]) for i, n in enumerate(names)]
        where = self.device if self.device.startswith(self.mode) else \
            f"{self.mode} ({self.device})"
        head = (f"kernel '{self.kernel}' on {where}: "
                f"{sum(v.ok for v in self.table)} of {len(self.table)} variants timed"
                + (", from the cache (nothing timed now)" if self.from_cache else ""))
        lines = [head, "  " + "  ".join(n.ljust(w) for n, w in zip(names, widths, strict=True))
                 + "  median      status"]
        for v, row in zip(self.table, cells, strict=True):
            mark = "*" if v.ok and v.point == self.best else " "
            time_text = _seconds(v.seconds) if v.seconds is not None else "-"
            status = v.status + (f": {v.reason}" if v.reason else "")
            lines.append(f"{mark} " + "  ".join(c.ljust(w) for c, w in
                                                zip(row, widths, strict=True))
                         + f"  {time_text:10}  {status}")
        lines.append(f"best: {_point_text(self.best)} ({_seconds(self.seconds)} per launch)")
        return "\n".join(lines)


# -- the space -------------------------------------------------------------------------------

def points(space, defines: Mapping | None = None,
           constraint: Callable[[dict], bool] | None = None) -> list[dict[str, Any]]:
    """The variants of ``space`` (``{name: [values...]}``), in order: the cartesian product,
    the first name varying slowest, filtered by ``constraint(point) -> bool``.  Raises
    okl.ArgumentError, naming the argument, for anything else."""
    if not isinstance(space, Mapping) or not space:
        raise ArgumentError(f"Device.tune: space must be a non-empty dict of define name -> "
                            f"list of values, e.g. {{'p_B': [64, 128, 256]}}, not {space!r:.80}")
    fixed = dict(defines or {})
    lists = []
    for name, values in space.items():
        if not isinstance(name, str) or not _NAME.match(name):
            raise ArgumentError(f"Device.tune: space key {name!r} is not a define name (a C "
                                "identifier such as p_B)")
        if name in fixed:
            raise ArgumentError(f"Device.tune: {name} is both in space and in defines; a "
                                "define is either fixed or tuned")
        if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
            raise ArgumentError(f"Device.tune: space[{name!r}] must be a list of values, e.g. "
                                f"[64, 128], not {values!r:.60}")
        values = list(values)
        if not values:
            raise ArgumentError(f"Device.tune: space[{name!r}] is empty; give at least one "
                                "value")
        for v in values:
            if isinstance(v, (np.integer, np.floating)):
                continue
            if not isinstance(v, (int, float, str)) or (isinstance(v, float) and
                                                        not math.isfinite(v)):
                raise ArgumentError(f"Device.tune: space[{name!r}] holds {v!r}; values are "
                                    "numbers or strings (a define's text)")
        texts = [str(v) for v in values]
        if len(set(texts)) != len(texts):
            twice = next(t for t in texts if texts.count(t) > 1)
            raise ArgumentError(f"Device.tune: space[{name!r}] lists {twice} more than once")
        lists.append([v.item() if isinstance(v, np.generic) else v for v in values])
    if constraint is not None and not callable(constraint):
        raise ArgumentError("Device.tune: constraint must be a function of a point (a dict "
                            f"of define -> value) returning True to keep it, not "
                            f"{constraint!r:.60}")
    names = list(space)
    out = [dict(zip(names, combo, strict=True)) for combo in itertools.product(*lists)]
    if constraint is not None:
        out = [p for p in out if constraint(dict(p))]
        if not out:
            raise ArgumentError("Device.tune: constraint rejects every point of the space")
    return out


# -- the key ---------------------------------------------------------------------------------

def device_identity(device) -> dict:
    """What makes timings of one device comparable: the mode, the device's name and
    architecture, what the backend builds with (compiler and flags, OpenCL platform and
    driver) and, on openmp, the number of threads."""
    backend = device.backend
    identity: dict[str, Any] = {"mode": device.mode, "name": device.name,
                                "arch": str(device.arch)}
    build = getattr(backend, "build_identity", None)
    if callable(build):
        identity["build"] = build()
    flags = getattr(backend, "flags", None)
    if flags is not None:
        identity["flags"] = list(flags)
    if device.mode == "openmp":
        identity["threads"] = openmp_threads()
    if device.check_bounds or device.check_races is not None:
        identity["checked"] = [bool(device.check_bounds), device.check_races is not None]
    return identity


def signature(args: Sequence) -> list:
    """The problem as far as timing depends on it: each array's dtype and shape, each integer
    scalar's value (a size), each other scalar's type."""
    out: list = []
    for a in args:
        if isinstance(a, Memory) or (isinstance(a, np.ndarray) and a.ndim > 0):
            out.append([str(a.dtype), list(a.shape)])
        elif isinstance(a, (bool, np.bool_)):
            out.append(bool(a))
        elif isinstance(a, (int, np.integer)):
            out.append(int(a))
        else:
            out.append(type(a).__name__)
    return out


# -- tuning ----------------------------------------------------------------------------------

def tune(device, path, kernel: str, space, args, *, defines: dict | None = None,
         include_dirs=(), flags=(), rtol: float = 1e-5, atol: float = 0.0,
         repeat: int | None = None, constraint: Callable[[dict], bool] | None = None,
         force: bool = False):
    """Device.tune (see there); returns the tuned okl.Kernel with ``.tuning`` set."""
    variants = points(space, defines, constraint)
    if isinstance(args, (str, bytes, Mapping)) or not isinstance(args, Sequence):
        raise ArgumentError("Device.tune: args must be a list or tuple of the kernel's "
                            f"arguments (numpy arrays, okl.Memory, numbers), not {args!r:.60}")
    for name, value in (("rtol", rtol), ("atol", atol)):
        if not isinstance(value, (int, float)) or not value >= 0:
            raise ArgumentError(f"Device.tune: {name} must be a number >= 0, not {value!r}")
    if repeat is not None and (isinstance(repeat, bool) or not isinstance(repeat, int)
                               or repeat < 1):
        raise ArgumentError(f"Device.tune: repeat must be a count >= 1 (or None: as many "
                            f"launches as fit in {BUDGET_S} s per variant), not {repeat!r}")
    path = os.fspath(path)
    fixed = dict(defines or {})
    text = read_source(path)
    document = {"okl": __version__, "device": device_identity(device), "kernel": kernel,
                "source": hashlib.sha256(text).hexdigest(),
                "file": os.path.abspath(path),
                "defines": dict(sorted(define_texts(fixed).items())),
                "include_dirs": [os.path.abspath(d) for d in include_dirs],
                "flags": [str(f) for f in flags], "space": variants,
                "args": signature(args)}
    key = Cache.key(document)
    build_opts = {"include_dirs": include_dirs, "flags": flags}

    def build(point: dict):
        return device.build_kernel(path, kernel, defines={**fixed, **point}, **build_opts)

    if not force:
        reused = _reuse(device, key, build)
        if reused is not None:
            return reused
    else:
        say(f"tune {kernel}: force=True, tuning again")
    say(f"tune {kernel} on {device.mode}: {len(variants)} variant(s) of "
        f"{', '.join(space)}")
    result, winner = _run(device, kernel, variants, build, list(args), rtol, atol, repeat)
    result.key, result.fixed = key, {k: _plain(v) for k, v in fixed.items()}
    digest = hashlib.sha256(winner.source.encode()).hexdigest()
    data = json.dumps({"result": result.to_json(), "winner_source": digest}).encode()
    stored = device.cache.put(LEVEL, key, {"result.json": data}, document)
    say(f"tune {kernel}: best {_point_text(result.best)} "
        f"({_seconds(result.seconds)} per launch); "
        + (f"stored in the cache ({LEVEL} {key[:12]})" if stored else "not stored (the cache "
           "is read-only, disabled or not writable)"))
    winner.tuning = result
    return winner


def _reuse(device, key: str, build):
    """The tuned kernel from a stored result, or None (absent, damaged or stale)."""
    files = device.cache.get(LEVEL, key)
    if files is None:
        say(f"tuning cache miss {key[:12]}")
        return None
    try:
        stored = json.loads(files["result.json"])
        result = TuneResult.from_json(stored["result"])
        digest = str(stored["winner_source"])
    except (KeyError, ValueError, TypeError) as e:
        say(f"tuning cache entry {key[:12]} unusable ({e}): tuning again")
        return None
    try:
        kernel = build(result.best)
    except OKLError as e:
        say(f"tuning cache entry {key[:12]}: the stored winner no longer builds "
            f"({_first_line(e)}): tuning again")
        return None
    if hashlib.sha256(kernel.source.encode()).hexdigest() != digest:
        say(f"tuning cache entry {key[:12]} is stale (the winner's translated source changed: "
            "an included file or okl itself): tuning again")
        return None
    result.from_cache = True
    say(f"tuning cache hit {key[:12]}: {result.kernel} best {_point_text(result.best)} "
        f"({_seconds(result.seconds)} per launch when tuned)")
    kernel.tuning = result
    return kernel


@dataclass
class _Candidate:
    variant: Variant
    kernel: Any
    args: list  # the arguments it is timed on: one set of copies for every variant
    times: list[float] = field(default_factory=list)


def _run(device, name: str, variants: list[dict], build, args: list, rtol: float,
         atol: float, repeat: int | None):
    """Build, check and time every variant; (TuneResult, winning okl.Kernel)."""
    hosts = [_host(a) for a in args]  # each array once on the host: the copies' source
    table = [Variant(dict(p)) for p in variants]
    reference: list[np.ndarray] | None = None
    ref_point: dict | None = None
    names: list[str] = []
    alive: list[_Candidate] = []
    # every variant is timed on the same copies, as a careful comparison times them: each
    # variant's own copies (checked above) would put each in memory placed and cached its
    # own way -- on a CPU that moved a variant's median by more than the variants differ
    bench: list | None = None

    def fresh() -> list:
        """Copies of the array arguments (scalars as given)."""
        return [device.asarray(h.copy()) if h is not None else a
                for a, h in zip(args, hosts, strict=True)]

    for variant in table:
        label = _point_text(variant.point)
        try:
            kernel = build(variant.point)
        except OKLError as e:  # this variant's (anything else is okl's bug: raised)
            _fail(variant, "build", e, name)
            continue
        copies = fresh()
        try:
            kernel(*copies)
            device.finish()
            outputs = [c.get() for c, h in zip(copies, hosts, strict=True) if h is not None]
        except Exception as e:
            _fail(variant, "launch", e, name)
            continue
        if reference is None:
            reference, ref_point = outputs, variant.point
            names = [p.name for p, h in zip(kernel.params, hosts, strict=False)
                     if h is not None]
        else:
            differs = _disagreement(reference, outputs, names, rtol, atol)
            if differs:
                variant.status = "differs"
                variant.reason = f"{differs} (reference: {_point_text(ref_point or {})})"
                log.warning("tune %s: variant %s excluded: %s", name, label, variant.reason)
                continue
        del copies, outputs  # checked: its own copies can go
        if bench is None:
            bench = fresh()
        candidate = _Candidate(variant, kernel, bench)
        try:
            _time(device, candidate, WARMUP)  # warm-up: not kept, but it sizes the timing
            first = max(statistics.median(candidate.times), 1e-9)
            candidate.times.clear()
        except Exception as e:
            _fail(variant, "launch", e, name)
            continue
        variant.launches = repeat or int(min(max(BUDGET_S / first, MIN_REPEAT), MAX_REPEAT))
        alive.append(candidate)
    _rounds(device, alive)
    finalists = _finalists(alive)
    if len(finalists) > 1:  # the close contenders again, as long: their order is what counts
        say(f"tune {name}: {len(finalists)} variants within {FINAL_MARGIN:.0%} of the best, "
            "timed again")
        _rounds(device, finalists)
    for c in alive:
        _close(c)
    timed = [v for v in table if v.ok and v.seconds is not None]
    if not timed:
        if len({v.reason for v in table}) == 1:  # one cause (no such kernel, bad args)
            raise OKLError(f"Device.tune: no variant of {name} ran; each failed with "
                           f"{table[0].reason}")
        reasons = "; ".join(f"{_point_text(v.point)}: {v.status} ({v.reason})" for v in table)
        raise OKLError(f"Device.tune: no variant of {name} ran ({reasons})")
    best = min(timed, key=lambda v: v.seconds or 0.0)
    result = TuneResult(name, device.mode, device.name, dict(best.point), float(best.seconds
                                                                               or 0.0), table)
    return result, next(c.kernel for c in alive if c.variant is best)


def _rounds(device, candidates: list[_Candidate]) -> None:
    """Each candidate's launches in ``ROUNDS`` interleaved rounds: A B C, A B C, ..."""
    for r in range(ROUNDS):
        for c in candidates:
            n = c.variant.launches
            _time(device, c, n * (r + 1) // ROUNDS - n * r // ROUNDS)


def _finalists(candidates: list[_Candidate]) -> list[_Candidate]:
    """The candidates whose median is within FINAL_MARGIN of the best one's (at most
    FINALISTS of them, fastest first): where noise could swap the order, more launches
    decide."""
    medians = sorted((statistics.median(c.times), k) for k, c in enumerate(candidates)
                     if c.times)
    if not medians:
        return []
    limit = medians[0][0] * (1 + FINAL_MARGIN)
    return [candidates[k] for m, k in medians[:FINALISTS] if m <= limit]


def _close(c: _Candidate) -> None:
    c.variant.seconds = statistics.median(c.times)
    c.variant.launches = len(c.times)
    say(f"  {_point_text(c.variant.point)}: median {_seconds(c.variant.seconds)} over "
        f"{len(c.times)} launches")
    c.args = []  # the shared copies go with the last candidate


def _time(device, c: _Candidate, count: int) -> None:
    """``count`` launches, each between two events of the current stream."""
    stream = device.current_stream
    marks = []
    kernel, args = c.kernel, c.args
    for _ in range(count):
        start = stream.record()
        kernel(*args)
        marks.append((start, stream.record()))
    c.times.extend(device.elapsed(a, b) for a, b in marks)


def _fail(variant: Variant, stage: str, error: Exception, name: str) -> None:
    variant.status = "failed"
    variant.reason = f"{stage}: {type(error).__name__}: {_first_line(error)}"
    say(f"tune {name}: variant {_point_text(variant.point)} skipped: {error}")


def _host(a) -> np.ndarray | None:
    """An array argument as a host array to copy from (None for a scalar)."""
    if isinstance(a, Memory):
        return a.get()
    if isinstance(a, np.ndarray) and a.ndim > 0:
        return np.ascontiguousarray(a)
    return None


def _disagreement(ref: list[np.ndarray], got: list[np.ndarray], names: list[str],
                  rtol: float, atol: float) -> str:
    """'' when every array agrees, else where the first difference is."""
    for k, (a, b) in enumerate(zip(ref, got, strict=True)):
        name = names[k] if k < len(names) else f"array {k + 1}"
        if a.dtype.fields is not None or not (np.issubdtype(a.dtype, np.floating) or
                                              np.issubdtype(a.dtype, np.complexfloating)):
            bad = (a.view(np.uint8) != b.view(np.uint8)) if a.dtype.fields is not None \
                else (a != b)
            bad = bad.reshape(-1)
        else:
            bad = ~(np.isclose(b, a, rtol=rtol, atol=atol, equal_nan=True)).reshape(-1)
        count = int(bad.sum())
        if count:
            i = int(np.flatnonzero(bad)[0])
            if a.dtype.fields is not None:
                return f"'{name}' differs at byte {i} ({count} bytes differ)"
            flat_a, flat_b = a.reshape(-1), b.reshape(-1)
            return (f"'{name}' differs at element {i} ({flat_b[i].item()!r}, reference "
                    f"{flat_a[i].item()!r}; {count} element{'s' * (count > 1)} differ"
                    f"{'s' * (count == 1)})")
    return ""


def _plain(value):
    """A define's value as JSON holds it: numbers and strings as they are, else its text."""
    if isinstance(value, np.generic):
        value = value.item()
    return value if isinstance(value, (bool, int, float, str)) else str(value)


def _first_line(error: Exception) -> str:
    text = str(error).strip().splitlines()
    line = text[0] if text else type(error).__name__
    return line if len(line) <= 160 else line[:157] + "..."


def _point_text(point: dict) -> str:
    return " ".join(f"{k}={_text(v)}" for k, v in point.items()) or "(no defines)"


def _text(value) -> str:
    return "-" if value is None else str(value)


def _seconds(s: float | None) -> str:
    if s is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"
