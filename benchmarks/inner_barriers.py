"""Barriers inside @inner loops on the CPU modes: okl's split against separate @inner blocks.

``python -m benchmarks.inner_barriers [--modes serial,openmp] [--repeats 31] [--json PATH]``
times, per mode, the block tree reduction and the Hillis-Steele scan of
``kernels/inner_barriers.okl`` written both ways: with the barrier inside the @inner loop
(``sumInner``, ``scanInner``: okl splits them, okl.transforms.cpu.barriers) and with
separate @inner blocks, as OKL authors write them for OCCA's CPU modes (``sumBlocks``,
``scanBlocks``).  The two versions of a kernel run alternately in one process, each launch
timed with its wait; the median of each is reported with their ratio (split ÷ blocks time,
so below 1.05 means within 5 %).  Every output is checked against numpy first.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path

import numpy as np

import okl

KERNEL_FILE = Path(__file__).resolve().parent / "kernels" / "inner_barriers.okl"
B = 256  # threads per block
BLOCKS = 1 << 14  # 4 Mi entries


def _check(name: str, got: np.ndarray, x: np.ndarray) -> None:
    rows = x.reshape(-1, B)
    want = rows.sum(axis=1, dtype=np.float64) if name.startswith("sum") else \
        np.cumsum(rows, axis=1).ravel()
    if name.startswith("sum"):
        np.testing.assert_allclose(got, want, rtol=1e-4, err_msg=name)
    else:
        np.testing.assert_array_equal(got, want.astype(np.int32), err_msg=name)


def measure(mode: str, repeats: int) -> list[dict]:
    dev = okl.Device(mode)
    rng = np.random.default_rng(1)
    xs = {"sum": rng.random(BLOCKS * B, dtype=np.float32),
          "scan": rng.integers(-100, 100, BLOCKS * B).astype(np.int32)}
    rows = []
    for kind in ("sum", "scan"):
        x = dev.asarray(xs[kind])
        out = dev.zeros(BLOCKS if kind == "sum" else BLOCKS * B,
                        np.float32 if kind == "sum" else np.int32)
        kernels = {way: dev.build_kernel(KERNEL_FILE, f"{kind}{way}", defines={"p_B": B})
                   for way in ("Inner", "Blocks")}
        times: dict[str, list[float]] = {way: [] for way in kernels}
        for way, k in kernels.items():
            k(BLOCKS, x, out)
            dev.finish()
            _check(f"{kind}{way}", out.get(), xs[kind])
        for _ in range(repeats):
            for way, k in kernels.items():
                start = time.perf_counter()
                k(BLOCKS, x, out)
                dev.finish()
                times[way].append(time.perf_counter() - start)
        split = statistics.median(times["Inner"])
        blocks = statistics.median(times["Blocks"])
        rows.append({"mode": mode, "kernel": kind, "entries": BLOCKS * B, "block": B,
                     "split_ms": split * 1e3, "blocks_ms": blocks * 1e3,
                     "speed_ratio": blocks / split, "repeats": repeats})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="serial,openmp")
    parser.add_argument("--repeats", type=int, default=31)
    parser.add_argument("--json", help="write the rows here too")
    args = parser.parse_args()
    rows = []
    for mode in args.modes.split(","):
        rows += measure(mode.strip(), args.repeats)
    print(f"{'mode':8} {'kernel':6} {'split ms':>9} {'blocks ms':>10} {'speed split/blocks':>19}")
    for r in rows:
        print(f"{r['mode']:8} {r['kernel']:6} {r['split_ms']:9.3f} {r['blocks_ms']:10.3f} "
              f"{r['speed_ratio']:19.3f}")
    if args.json:
        props = okl.Device("serial").properties
        Path(args.json).write_text(json.dumps({
            "machine": f"{props['name']} ({props['cpu_count']} cores, {platform.machine()})",
            "command": "python -m benchmarks.inner_barriers " + " ".join(
                f"--{k} {v}" for k, v in (("modes", args.modes), ("repeats", args.repeats))),
            "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
