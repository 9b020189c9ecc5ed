"""Where the benchParanumal driver's CG iteration spends host time on one okl mode.

    python -m benchmarks.profile_cg [--kernels CHECKOUT] [--problem BP5] [--degree 3] \\
        [--ndofs 4e6] [--mode cuda]

Times three solves of 100 iterations, then, with the GPU idle, the calls an iteration makes
(a launch, the scalar read-back through ``Memory.get`` of a view and the alternatives), each
the mean of 2000 calls; on cuda also CuPy's ``get`` and a bare ``cudaMemcpy`` into pinned
memory, the floor of a read-back.  Then a cProfile of one solve.  Without ``--kernels``: okl's
stand-in kernels (BP5).  Results: ``benchmarks/results/h100-2026-11-27-cg-readback.txt``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

import numpy as np

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "benchparanumal"
sys.path.insert(0, str(EXAMPLE))

import hexmesh  # noqa: E402
import run  # noqa: E402
from problems import parse  # noqa: E402

import okl  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernels", type=Path, default=run.STANDINS)
    ap.add_argument("--problem", default="BP5")
    ap.add_argument("--degree", type=int, default=3)
    ap.add_argument("--ndofs", type=float, default=4e6)
    ap.add_argument("--mode", default="cuda")
    args = ap.parse_args(argv)
    dev = okl.Device(args.mode)
    p = parse(args.problem)
    nx = hexmesh.box_size(args.ndofs, args.degree, p.nfields)
    s = run.Setup(dev, args.kernels, p, args.degree, nx, nx, nx, args.mode)
    cg = run.CG(s)
    x, r, start = run.bp_system(s)
    start()
    cg.solve(x, r, 200)
    for _ in range(3):
        start()
        dev.finish()
        t0 = time.perf_counter()
        cg.solve(x, r, 100)
        dev.finish()
        print(f"solve, 100 iterations: {(time.perf_counter() - t0) * 1e4:.1f} us per iteration")

    def per(what: str, fn, k: int = 2000) -> None:
        fn()
        dev.finish()
        t0 = time.perf_counter()
        for _ in range(k):
            fn()
        dev.finish()
        print(f"{what}: {(time.perf_counter() - t0) / k * 1e6:.2f} us")

    tiny = dev.zeros(1, np.float64)
    view = cg.scratch[0:1]
    host, pinned = np.empty(1), dev.pinned((1,), np.float64)
    per("axpy n=1, async launch", lambda: s.k["axpy"](1, 1.0, tiny, 1.0, tiny))
    per("mem[0:1] (a view made)", lambda: cg.scratch[0:1])
    per("view.get() (8 bytes)", view.get)
    per("scratch.get() (256 doubles)", cg.scratch.get)
    per("scratch.copy_to(numpy, count=1)", lambda: cg.scratch.copy_to(host, count=1))
    per("scratch.copy_to(pinned, count=1)", lambda: cg.scratch.copy_to(pinned, count=1))
    if args.mode == "cuda":
        import cupy as cp
        handle = cg.scratch.handle
        per("cupy h[0:1].get()", lambda: handle[0:1].get())
        per("cudaMemcpy D2H 8 B into pinned memory (the floor)", lambda: cp.cuda.runtime.memcpy(
            pinned.ctypes.data, handle.data.ptr, 8, cp.cuda.runtime.memcpyDeviceToHost))
    per("dev.finish()", dev.finish)
    start()
    dev.finish()
    profile = cProfile.Profile()
    profile.enable()
    cg.solve(x, r, 100)
    dev.finish()
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(20)
    print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
