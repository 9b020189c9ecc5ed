"""The checkers' cost: the same kernels timed with and without ``check_bounds=True`` or,
with ``--races``, ``check_races=True``.

``python -m benchmarks.checked_slowdown [--races] [mode ...]`` (default modes: openmp opencl;
with --races serial openmp) prints, per kernel, the median time of one launch (with its wait;
a checked launch also reads back its error buffer or report) unchecked and checked, and
their ratio.  Inputs are in bounds and the kernels race-free: this is the price of the
guards or of the race checker's shadow state, not of a report.  The race checker keeps about
140 bytes per element of every array (more for arrays updated @atomic), so it runs at a 16th
of the sizes.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

import okl

KERNELS = Path(__file__).resolve().parent / "kernels"
N = 1 << 24  # entries for stream triad and the reduction
W = 2048  # fd2d grid side


def cases(dev: okl.Device, scale: int = 1):
    """(name, kernel, arguments) of each timed launch, built on ``dev``; ``scale`` divides
    the sizes (of the reduction and the triad; fd2d's side by its square root)."""
    rng = np.random.default_rng(1)
    n, w = N // scale, W // int(np.sqrt(scale))
    triad = dev.build_kernel(KERNELS / "stream.okl", "streamTriad",
                             defines={"dfloat": "double", "p_B": 256, "p_DOTB": 256})
    a, b, c = (dev.asarray(rng.random(n)) for _ in range(3))
    yield f"stream triad (FP64, 2^{n.bit_length() - 1})", triad, (n, 0.4, b, c, a)
    reduce = dev.build_kernel(KERNELS / "reduction.okl", "reduceShared",
                              defines={"p_B": 256, "p_U": 8})
    x = dev.asarray(rng.random(n, dtype=np.float32))
    blocks = (n + 256 * 8 - 1) // (256 * 8)
    yield f"reduceShared (float, 2^{n.bit_length() - 1})", reduce, (
        n, x, dev.zeros(blocks, np.float32), dev.zeros(1, np.float32))
    fd2d = dev.build_kernel(KERNELS / "fd2d.okl", "fd2d", defines={
        "p_W": w, "p_H": w, "p_BX": 16, "p_BY": 16, "p_SR": 7, "p_C2": "0.25f",
        "p_DT2": "0.01f", "p_SX": w // 2 + 3, "p_SY": w // 2 - 5, "p_FREQ": "10.0f"})
    u = [dev.asarray(rng.random(w * w, dtype=np.float32)) for _ in range(3)]
    yield f"fd2d ({w}x{w}, radius 7)", fd2d, (np.float32(0.1), u[0], u[1], u[2])


def median_seconds(dev: okl.Device, kernel, args, repeats: int = 15) -> float:
    kernel(*args)
    dev.finish()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        kernel(*args)
        dev.finish()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str]) -> None:
    races = "--races" in argv
    modes = [a for a in argv if a != "--races"] or (
        ["serial", "openmp"] if races else ["openmp", "opencl"])
    option, scale = ("check_races", 16) if races else ("check_bounds", 1)
    for mode in modes:
        plain, checked = okl.Device(mode), okl.Device(mode, **{option: True})
        for (name, k0, a0), (_, k1, a1) in zip(cases(plain, scale), cases(checked, scale),
                                               strict=True):
            t0, t1 = median_seconds(plain, k0, a0), median_seconds(checked, k1, a1)
            print(f"{mode:7} {name:28} {t0 * 1e3:8.2f} ms {t1 * 1e3:8.2f} ms  x{t1 / t0:.2f}",
                  flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
