"""Copy/compute overlap with two okl streams, and what an event-timed launch costs.

``python -m benchmarks.overlap [mode ...]`` (default: every GPU mode present, else openmp).
Per mode: a host-to-device copy of ``COPY_MB`` MB from a pinned array (``dev.pinned``) on
stream 1 and a compute kernel (stream triad, FP64, 2^26, repeated) on stream 2, timed alone
and together with okl's own events (``s.record()``, ``dev.elapsed``).  Overlap is how much of
the shorter operation the concurrent run hides: (copy + compute - together) / min(copy,
compute), 100 % = ideal (together = max), 0 % = serialised.  CPU modes run streams in order on
the host, so they show 0 % by design.  Then the cost of timing a launch with events: the host
time of record + launch + record against the launch alone.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

import okl

KERNELS = Path(__file__).resolve().parent / "kernels"
N = 1 << 26
COPY_MB = 512
REPEAT = 5


def _timed(dev, streams, work) -> float:
    """Seconds from the first stream's start event to the last stream's end event."""
    start = [s.record() for s in streams]
    work()
    end = [s.record() for s in streams]
    for e in end:
        e.finish()
    return max(dev.elapsed(a, b) for a, b in zip(start, end, strict=True))


def overlap(mode: str) -> dict:
    dev = okl.Device(mode)
    triad = dev.build_kernel(KERNELS / "stream.okl", "streamTriad",
                             defines={"dfloat": "double", "p_B": 256, "p_DOTB": 256})
    a, b, c = (dev.zeros(N, np.float64) for _ in range(3))
    host = dev.pinned(COPY_MB << 17, np.float64)  # 8-byte elements: COPY_MB MB
    host[:] = 1.0
    target = dev.zeros(host.size, np.float64)
    s1, s2 = dev.stream(), dev.stream()

    def copy():
        with s1:
            target.copy_from(host, blocking=False)

    def compute():
        with s2:
            for _ in range(REPEAT):
                triad(N, 0.4, b, c, a)

    def both():
        copy()
        compute()

    for f in (copy, compute, both):  # warm up
        f()
        dev.finish()
    t_copy = min(_timed(dev, [s1], copy) for _ in range(5))
    t_compute = min(_timed(dev, [s2], compute) for _ in range(5))
    t_both = min(_timed(dev, [s1, s2], both) for _ in range(5))
    ideal = max(t_copy, t_compute)
    hidden = (t_copy + t_compute - t_both) / min(t_copy, t_compute)
    return {"mode": mode, "copy_ms": t_copy * 1e3, "compute_ms": t_compute * 1e3,
            "together_ms": t_both * 1e3, "ideal_ms": ideal * 1e3,
            "overlap_pct": max(0.0, hidden) * 100}


def event_cost(mode: str, count: int = 2000) -> dict:
    dev = okl.Device(mode)
    k = dev.build_kernel(KERNELS / "addvectors.okl", "addVectors", defines={"p_B": 256})
    x, y, z = (dev.zeros(1024, np.float32) for _ in range(3))
    s = dev.current_stream
    plain, timed = [], []
    for _ in range(5):
        dev.finish()
        t = time.perf_counter()
        for _ in range(count):
            k(1024, x, y, z)
        dev.finish()
        plain.append((time.perf_counter() - t) / count)
        t = time.perf_counter()
        for _ in range(count):
            e0 = s.record()
            k(1024, x, y, z)
            e1 = s.record()
        dev.finish()
        dev.elapsed(e0, e1)
        timed.append((time.perf_counter() - t) / count)
    return {"mode": mode, "launch_us": statistics.median(plain) * 1e6,
            "event_timed_launch_us": statistics.median(timed) * 1e6}


def main(argv: list[str]) -> None:
    modes = argv or [m for m in ("cuda", "hip") if _available(m)] or ["openmp"]
    for mode in modes:
        o = overlap(mode)
        print(f"{mode:7} copy {o['copy_ms']:8.2f} ms  compute {o['compute_ms']:8.2f} ms  "
              f"together {o['together_ms']:8.2f} ms  ideal {o['ideal_ms']:8.2f} ms  "
              f"overlap {o['overlap_pct']:5.1f} %")
        e = event_cost(mode)
        print(f"{mode:7} launch {e['launch_us']:6.2f} us, with two events around it "
              f"{e['event_timed_launch_us']:6.2f} us")


def _available(mode: str) -> bool:
    return any(b.name == mode and b.available for b in okl.backends())


if __name__ == "__main__":
    main(sys.argv[1:])
