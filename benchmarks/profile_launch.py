"""Where okl's per-launch host time goes: ``python -m benchmarks.profile_launch --mode cuda``.

Launches addVectors on 1024 floats many times, prints µs per launch for okl and for the raw
peer call (CuPy RawKernel on GPUs, ctypes on CPUs), then the top functions of a cProfile of
the okl launches (profiling inflates the absolute numbers; compare the shares).  On cuda it
also times the driver call alone (the same kernel, kernelParams packed once) through the two
Python bindings of ``cuLaunchKernel`` okl could use: CuPy's ``cupy.cuda.driver.launchKernel``
(what okl calls) and cuda-python's ``cuda.bindings.driver.cuLaunchKernel``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import time

import numpy as np


def main(argv=None) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--mode", default="cuda")
    p.add_argument("--count", type=int, default=20000)
    p.add_argument("--top", type=int, default=15)
    p.add_argument("--rounds", type=int, default=10)
    args = p.parse_args(argv)
    import okl

    from .common import KERNELS, PEERS
    dev = okl.Device(args.mode)
    k = dev.build_kernel(KERNELS / "addvectors.okl", "addVectors", defines={"p_B": 256})
    n = 1024
    host = [np.ones(n, np.float32), np.ones(n, np.float32), np.zeros(n, np.float32)]
    if args.mode in ("cuda", "hip"):
        import cupy as cp
        a, b, c = (cp.asarray(x) for x in host)
        f = cp.RawModule(code=(PEERS / "cuda" / "addvectors.cu").read_text(),
                         options=("-std=c++17",)).get_function("add_vectors")
        N = np.int32(n)

        def raw():
            f((4,), (256,), (N, a, b, c))
    elif args.mode == "opencl":
        a, b, c = (dev.asarray(x) for x in host)
        raw = None
    else:
        import ctypes

        from .common import c_peer
        a, b, c = host
        g = c_peer("addvectors").add_vectors
        g.argtypes = [ctypes.c_int] + [ctypes.c_void_p] * 3
        pa, pb, pc = (x.ctypes.data for x in host)

        def raw():
            g(n, pa, pb, pc)

    def timed(fn, count):
        for _ in range(200):
            fn()
        dev.finish()
        t0 = time.perf_counter()
        for _ in range(count):
            fn()
        dev.finish()
        return (time.perf_counter() - t0) / count * 1e6

    # okl and the peer in alternating rounds, so that the machine's drifts hit both alike
    calls = {f"okl {args.mode}": lambda: k(n, a, b, c), "raw peer call": raw}
    calls = {who: call for who, call in calls.items() if call is not None}
    times: dict[str, list[float]] = {who: [] for who in calls}
    for _ in range(args.rounds):
        for who, call in calls.items():
            times[who].append(timed(call, args.count // args.rounds))
    for who, ts in times.items():
        print(f"{who}: {min(ts):.2f} us/launch (async; best of {args.rounds} rounds, median "
              f"{statistics.median(ts):.2f})")
    if args.mode == "cuda":
        for name, call in _driver_calls(f.kernel.ptr, (N, a, b, c)):
            print(f"driver call alone, {name}: {timed(call, args.count):.2f} us/launch (async)")
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(args.count):
        k(n, a, b, c)
    dev.finish()
    pr.disable()
    s = io.StringIO()
    pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(args.top)
    print(s.getvalue())


def _driver_calls(function: int, args) -> list:
    """``(binding, call)``: one launch of ``function`` (grid 4, block 256) on CuPy's current
    stream with ``args`` packed once into kernelParams."""
    import ctypes

    import cupy as cp
    n, *arrays = args
    values = (ctypes.c_int32(int(n)), *(ctypes.c_uint64(x.data.ptr) for x in arrays))
    params = (ctypes.c_void_p * len(values))(*(ctypes.addressof(v) for v in values))
    address = ctypes.addressof(params)
    stream = cp.cuda.get_current_stream().ptr
    launch = cp.cuda.driver.launchKernel
    keep = (values, params)  # alive as long as the calls
    calls = [("cupy.cuda.driver.launchKernel",
              lambda _k=keep: launch(function, 4, 1, 1, 256, 1, 1, 0, stream, address, 0))]
    try:
        from cuda.bindings import driver
    except ImportError:
        return calls
    f, s, go = driver.CUfunction(function), driver.CUstream(stream), driver.cuLaunchKernel
    calls.append(("cuda.bindings cuLaunchKernel",
                  lambda _k=keep: go(f, 4, 1, 1, 256, 1, 1, 0, s, address, 0)))
    return calls


if __name__ == "__main__":
    main()
