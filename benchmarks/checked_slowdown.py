"""Checked mode's cost: the same kernels timed with and without ``check_bounds=True``.

``python -m benchmarks.checked_slowdown [mode ...]`` (default: openmp opencl) prints, per
kernel, the median time of one launch (with its wait; a checked launch also reads back its
error buffer) unchecked and checked, and their ratio.  Inputs are in bounds: this is the
price of the guards, not of a report.
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


def cases(dev: okl.Device):
    """(name, kernel, arguments) of each timed launch, built on ``dev``."""
    rng = np.random.default_rng(1)
    triad = dev.build_kernel(KERNELS / "stream.okl", "streamTriad",
                             defines={"dfloat": "double", "p_B": 256, "p_DOTB": 256})
    a, b, c = (dev.asarray(rng.random(N)) for _ in range(3))
    yield "stream triad (FP64, 2^24)", triad, (N, 0.4, b, c, a)
    reduce = dev.build_kernel(KERNELS / "reduction.okl", "reduceShared",
                              defines={"p_B": 256, "p_U": 8})
    x = dev.asarray(rng.random(N, dtype=np.float32))
    blocks = (N + 256 * 8 - 1) // (256 * 8)
    yield "reduceShared (float, 2^24)", reduce, (N, x, dev.zeros(blocks, np.float32),
                                                 dev.zeros(1, np.float32))
    fd2d = dev.build_kernel(KERNELS / "fd2d.okl", "fd2d", defines={
        "p_W": W, "p_H": W, "p_BX": 16, "p_BY": 16, "p_SR": 7, "p_C2": "0.25f",
        "p_DT2": "0.01f", "p_SX": W // 2 + 3, "p_SY": W // 2 - 5, "p_FREQ": "10.0f"})
    u = [dev.asarray(rng.random(W * W, dtype=np.float32)) for _ in range(3)]
    yield f"fd2d ({W}x{W}, radius 7)", fd2d, (np.float32(0.1), u[0], u[1], u[2])


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
    for mode in argv or ["openmp", "opencl"]:
        plain, checked = okl.Device(mode), okl.Device(mode, check_bounds=True)
        for (name, k0, a0), (_, k1, a1) in zip(cases(plain), cases(checked), strict=True):
            t0, t1 = median_seconds(plain, k0, a0), median_seconds(checked, k1, a1)
            print(f"{mode:7} {name:28} {t0 * 1e3:8.2f} ms {t1 * 1e3:8.2f} ms  x{t1 / t0:.2f}",
                  flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
