"""Issue 30's small CPU rows, A/B across two okl trees: the generated C of each tree and the
hand-written OpenMP peer, compiled with the benchmarks' CPU flags, called in rotating order.

    python -m benchmarks.small_rows --before /tmp/okl-before [--threads 1|2] [--rounds 80]

``--before``: an okl tree to compare with this one (``git archive <rev> | tar -x -C DIR``).
One thread (serial mode's C, ``OMP_NUM_THREADS=1``) is timed by the thread's CPU time, so
other jobs holding the core do not count; two threads (openmp mode's C) by wall time.  Each
row prints best and median GB/s, best over the peer's best, and the median over the
rotations of the per-rotation ratio to the peer -- the numbers in
results/cpu-2026-11-28-small-rows.txt.  n = 2^25 as in the suite.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from .common import CPU_FLAGS, KERNELS, PEERS, c_compiler

P = ctypes.c_void_p
N = 2**25
HERE = Path(__file__).resolve().parent.parent
WORK = tempfile.mkdtemp(prefix="okl-small-rows-")


def translate(tree: Path, file: str, defines: dict, mode: str) -> str:
    """The tree's translation, in a process of its own (the trees are different okl's)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from okl.translation import translate; "
            "print(translate(open(sys.argv[2]).read(), sys.argv[3], defines=eval(sys.argv[4]), "
            "line_directives=False).source)")
    return subprocess.run([sys.executable, "-c", code, str(tree), str(KERNELS / file), mode,
                           repr(defines)], capture_output=True, text=True, check=True,
                          cwd=tree).stdout


def build(src: str, tag: str, defines: dict | None = None) -> ctypes.CDLL:
    path = os.path.join(WORK, tag + ".c")
    with open(path, "w") as f:
        f.write(src)
    subprocess.run([c_compiler(), *CPU_FLAGS, *[f"-D{k}={v}" for k, v in (defines or {}).items()],
                    path, "-o", path[:-2] + ".so", "-lm"], check=True)
    return ctypes.CDLL(path[:-2] + ".so")


def entry(lib: ctypes.CDLL, name: str, args: list):
    """A call of okl's ``_okl_entry_<name>(void **args, stop)``: ints by address, arrays by
    data pointer."""
    f = getattr(lib, "_okl_entry_" + name)
    ints = [ctypes.c_int(a) for a in args if not isinstance(a, np.ndarray)]
    slots = (ctypes.c_void_p * len(args))()
    it = iter(ints)
    for k, a in enumerate(args):
        slots[k] = a.ctypes.data if isinstance(a, np.ndarray) else ctypes.addressof(next(it))
    stop = ctypes.c_int(0)

    def call() -> None:
        f(slots, ctypes.byref(stop))
    call.keep = (ints, slots, stop)  # type: ignore[attr-defined]  # what the slots point at
    return call


def race(calls: dict, work: float, rotations: int, clock) -> None:
    names = list(calls)
    times: dict[str, list[float]] = {k: [] for k in calls}
    for f in calls.values():
        f()
    for r in range(rotations):
        for k in names[r % len(names):] + names[:r % len(names)]:
            t0 = clock()
            calls[k]()
            times[k].append(clock() - t0)
    hand = min(times["hand"])
    for k, t in times.items():
        ratio = statistics.median(h / x for h, x in zip(times["hand"], t, strict=True))
        print(f"  {k:7} best {work / min(t) / 1e9:7.3f} GB/s  median "
              f"{work / statistics.median(t) / 1e9:7.3f}  best/hand {hand / min(t):.3f}  "
              f"median of per-rotation ratios {ratio:.3f}")


def rows(before: Path, mode: str, rotations: int, clock) -> None:
    trees = {"before": before, "after": HERE}
    x = np.random.default_rng(3).random(N, dtype=np.float32)
    part, total = np.zeros(N // 8192 + 1, np.float32), np.zeros(1, np.float32)
    red = {"p_B": 256, "p_U": 32}
    peer = build((PEERS / "openmp" / "reduction.c").read_text(), "reduction_hand", red)
    for kind, name, args in (("shared", "reduceShared", [N, x, part, total]),
                             ("atomic", "reduceAtomic", [N, x, total])):
        print(f"== reduction {kind} fp32, {mode}")
        calls = {tag: entry(build(translate(t, "reduction.okl", red, mode), f"{kind}_{tag}"),
                            name, args) for tag, t in trees.items()}
        f = peer.reduce_blocked if kind == "shared" else peer.reduce_atomic
        f.argtypes = [ctypes.c_int, P, P, P] if kind == "shared" else [ctypes.c_int, P, P]
        extra = [part.ctypes.data, total.ctypes.data] if kind == "shared" else \
            [total.ctypes.data]
        calls["hand"] = lambda f=f, e=extra: f(N, x.ctypes.data, *e)
        race(calls, 4 * N, rotations, clock)
    for fp, dtype in (("float", np.float32), ("double", np.float64)):
        print(f"== stream dot {fp}, {mode}")
        d = {"dfloat": fp, "p_B": 256, "p_DOTB": 256}
        g = np.random.default_rng(4)
        a, b = g.random(N).astype(dtype), g.random(N).astype(dtype)
        dpart, res = np.zeros(64, dtype), np.zeros(1, dtype)
        calls = {tag: entry(build(translate(t, "stream.okl", d, mode), f"dot_{fp}_{tag}"),
                            "streamDot", [N, 64, a, b, dpart, res]) for tag, t in trees.items()}
        h = build((PEERS / "openmp" / "stream.c").read_text(), f"stream_hand_{fp}",
                  {"dfloat": fp}).stream_dot
        h.argtypes = [ctypes.c_int, P, P, P]
        calls["hand"] = lambda h=h, a=a, b=b, r=res: h(N, a.ctypes.data, b.ctypes.data,
                                                      r.ctypes.data)
        race(calls, 2 * a.itemsize * N, rotations, clock)


def main(argv=None) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--before", required=True, type=Path, help="the okl tree to compare with")
    p.add_argument("--threads", type=int, choices=(1, 2), default=1)
    p.add_argument("--rounds", type=int, default=80, help="rotations (one call of each)")
    args = p.parse_args(argv)
    os.environ["OMP_NUM_THREADS"] = str(args.threads)  # read when libgomp first loads
    os.environ.setdefault("OMP_PROC_BIND", "true")
    one = args.threads == 1
    rows(args.before.resolve(), "serial" if one else "openmp", args.rounds,
         time.thread_time if one else time.perf_counter)


if __name__ == "__main__":
    main()
