"""Evidence for the CPU code-generation findings: okl's OpenMP output, hand-edited variants of
it, and the hand-written peer, compiled with okl's flags and timed side by side.

    python -m benchmarks.codegen_experiments [--quick]

Each experiment translates a benchmark kernel with okl (openmp mode), applies one textual
change that a compiler could make (each variant says which), checks the result against the
unmodified translation, and prints best / median throughput over interleaved repetitions.
The pocl experiment (explicit barrier in a plain loop around an @inner block) needs a CPU
OpenCL device.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import statistics
import subprocess
import tempfile
import time

import numpy as np

from .common import CPU_FLAGS, KERNELS, PEERS, c_compiler

P = ctypes.c_void_p
WORK = tempfile.mkdtemp(prefix="okl-codegen-")


def translate(file: str, defines: dict) -> str:
    from okl.translation import translate as tr
    src = (KERNELS / file).read_text()
    out = tr(src, "openmp", defines=defines, filename=str(KERNELS / file),
             line_directives=False).source
    return out.replace("static void", "void")  # the entry points are internal-linkage now


def build(src: str, tag: str) -> tuple[ctypes.CDLL, float]:
    path = os.path.join(WORK, tag + ".c")
    with open(path, "w") as f:
        f.write(src)
    t0 = time.perf_counter()
    subprocess.run([c_compiler(), *CPU_FLAGS, path, "-o", path[:-2] + ".so", "-lm"], check=True)
    return ctypes.CDLL(path[:-2] + ".so"), time.perf_counter() - t0


def sub(pattern: str, repl: str, text: str) -> str:
    new, n = re.subn(pattern, repl, text)
    if n == 0:
        raise RuntimeError(f"pattern not found in the translation: {pattern}")
    return new


def race(calls: dict, work: float, unit: str, reps: int, rounds: int = 3) -> None:
    times = {k: [] for k in calls}
    for fn, _ in calls.values():
        fn()
    for _ in range(rounds):
        for k, (fn, _) in calls.items():
            for _ in range(reps):
                t0 = time.perf_counter()
                fn()
                times[k].append(time.perf_counter() - t0)
    for k, (_, extra) in calls.items():
        t = times[k]
        print(f"  {k:52} best {work / min(t):9.4g} {unit}  median "
              f"{work / statistics.median(t):9.4g}  {extra}")


def stream(n: int, reps: int) -> None:
    print(f"stream triad, FP64, n = {n}: the @tile guard `if (i < N)` vs a narrowed loop bound")
    gen = translate("stream.okl", {"dfloat": "double", "p_B": 256, "p_DOTB": 256})
    narrowed = sub(r"for \(int i = _okl_tiled_i; i < _okl_tiled_i \+ 256; \+\+i\)(\s*)\{(\s*)"
                   r"if \(i < N\)",
                   r"for (int i = _okl_tiled_i; i < (_okl_tiled_i + 256 < N ? "
                   r"_okl_tiled_i + 256 : N); ++i)\1{\2if (1)", gen)
    b, c = np.random.default_rng(1).random(n), np.random.default_rng(2).random(n)
    outs = {}
    calls = {}
    for tag, src in (("generated", gen), ("tile loop bound min(tile+256, N), no guard",
                                          narrowed)):
        lib, ct = build(src, "stream_" + tag[:4])
        f = lib.streamTriad
        f.argtypes = [ctypes.c_int, ctypes.c_double, P, P, P]
        o = np.zeros(n)
        outs[tag] = o
        calls[tag] = ((lambda f=f, o=o: f(n, 0.4, b.ctypes.data, c.ctypes.data, o.ctypes.data)),
                      f"(compile {ct * 1e3:.0f} ms)")
    lib, ct = build((PEERS / "openmp" / "stream.c").read_text(), "stream_hand")
    h = lib.stream_triad
    h.argtypes = [ctypes.c_int, ctypes.c_double, P, P, P]
    o = np.zeros(n)
    outs["hand"] = o
    calls["hand OpenMP C"] = ((lambda: h(n, 0.4, b.ctypes.data, c.ctypes.data, o.ctypes.data)),
                              f"(compile {ct * 1e3:.0f} ms)")
    race(calls, 24 * n / 1e9, "GB/s", reps)
    ref = b + 0.4 * c
    assert all(np.allclose(x, ref) for x in outs.values())


def reduction(n: int, reps: int) -> None:
    print(f"reduceShared, float, n = {n}: the tree's `if (t < n)` guard vs a narrowed bound")
    gen = translate("reduction.okl", {"p_B": 256, "p_U": 32})
    tree = sub(r"for \(int t = 0; t < 256; \+\+t\)(\s*)\{(\s*)if \(t < n\) s_x\[t\] \+= "
               r"s_x\[t \+ n\];",
               r"for (int t = 0; t < n; ++t)\1{\2s_x[t] += s_x[t + n];", gen)
    x = np.random.default_rng(3).random(n, dtype=np.float32)
    partial = np.zeros(n // 8192 + 1, np.float32)
    calls, totals = {}, {}
    for tag, src in (("generated", gen), ("tree loops bounded by n (no guard)", tree)):
        lib, ct = build(src, "red_" + tag[:4])
        f = lib.reduceShared
        f.argtypes = [ctypes.c_int, P, P, P]
        t = np.zeros(1, np.float32)
        totals[tag] = t
        calls[tag] = ((lambda f=f, t=t: f(n, x.ctypes.data, partial.ctypes.data, t.ctypes.data)),
                      f"(compile {ct * 1e3:.0f} ms)")
    lib, ct = build((PEERS / "openmp" / "reduction.c").read_text(), "red_hand")
    h = lib.reduce_blocked
    h.argtypes = [ctypes.c_int, P, P, P]
    t = np.zeros(1, np.float32)
    totals["hand"] = t
    calls["hand OpenMP C (same blocking)"] = (
        (lambda: h(n, x.ctypes.data, partial.ctypes.data, t.ctypes.data)),
        f"(compile {ct * 1e3:.0f} ms)")
    race(calls, 4 * n / 1e9, "GB/s", reps)
    ref = x.astype(np.float64).sum()
    assert all(abs(v[0] - ref) < 1e-4 * ref for v in totals.values())


def bk5(E: int, nq: int, reps: int) -> None:
    print(f"BK5, N = {nq - 1}, {E} elements: `#pragma GCC unroll` on the slab loop, and the "
          f"@exclusive array layout [slot][k] vs [k][slot]")
    from .bench_bk5 import reference
    gen = translate("bk5.okl", {"dfloat": "double", "p_Nq": nq})
    slots = nq * nq
    no_unroll = sub(rf"#pragma GCC unroll {nq}(\s*)for \(int k = 0; k < {nq}; \+\+k\)(\s*)\{{"
                    rf"(\s*)_okl_exclusive_index = 0;",
                    rf"for (int k = 0; k < {nq}; ++k)\2{{\3_okl_exclusive_index = 0;", gen)

    def transpose(s: str) -> str:
        for name in ("r_q", "r_Aq"):
            s = sub(rf"double {name}\[{slots}\]\[{nq}\];", f"double {name}[{nq}][{slots}];", s)
            s = sub(rf"{name}\[_okl_exclusive_index\]\[(\w+)\]",
                    rf"{name}[\1][_okl_exclusive_index]", s)
        return s
    variants = {"generated": gen, "no GCC unroll on the slab loop": no_unroll,
                "exclusive arrays as [k][slot]": transpose(gen),
                "both": transpose(no_unroll)}
    np_ = nq ** 3
    g = np.random.default_rng(4)
    H = {"ggeo": g.random(E * 7 * np_), "D": g.random(nq * nq) * 2 - 1,
         "q": g.random(E * np_) * 2 - 1}
    ref = reference(np, H, nq)
    calls, outs = {}, {}
    for tag, src in variants.items():
        lib, ct = build(src, "bk5_" + re.sub(r"\W", "", tag)[:10])
        f = lib.bk5
        f.argtypes = [ctypes.c_int, ctypes.c_double, P, P, P, P]
        o = np.zeros(E * np_)
        outs[tag] = o
        calls[tag] = ((lambda f=f, o=o: f(E, 1.0, H["ggeo"].ctypes.data, H["D"].ctypes.data,
                                          H["q"].ctypes.data, o.ctypes.data)),
                      f"(compile {ct * 1e3:.0f} ms)")
    lib, ct = build(f"#define p_Nq {nq}\n" + (PEERS / "openmp" / "bk5.c").read_text(),
                    "bk5_hand")
    h = lib.bk5
    h.argtypes = [ctypes.c_int, ctypes.c_double, P, P, P, P]
    o = np.zeros(E * np_)
    outs["hand"] = o
    calls["hand OpenMP C"] = ((lambda: h(E, 1.0, H["ggeo"].ctypes.data, H["D"].ctypes.data,
                                         H["q"].ctypes.data, o.ctypes.data)),
                              f"(compile {ct * 1e3:.0f} ms)")
    race(calls, E * np_ / 1e9, "GDOF/s", reps)
    scale = np.abs(ref).max()
    assert all(np.abs(v - ref).max() < 1e-11 * scale for v in outs.values())


def pocl_dot(n: int, reps: int) -> None:
    try:
        import pyopencl as cl
        ok = any(d.type & cl.device_type.CPU for p in cl.get_platforms() for d in p.get_devices())
    except Exception:
        ok = False
    if not ok:
        print("pocl dot: no CPU OpenCL device, skipped")
        return
    import okl
    print(f"streamDot on a CPU OpenCL device, FP64, n = {n}: a barrier at the end of the plain "
          f"`for k` loop that holds the accumulating @inner block")
    src = (KERNELS / "stream.okl").read_text()
    barrier = src.replace("        if (i < N) r_sum += a[i] * b[i];\n      }\n    }",
                          "        if (i < N) r_sum += a[i] * b[i];\n      }\n      @barrier;\n"
                          "    }")
    assert barrier != src
    platforms = cl.get_platforms()
    pid = next(i for i, p in enumerate(platforms)
               if any(d.type & cl.device_type.CPU for d in p.get_devices()))
    dev = okl.Device("opencl", platform_id=pid)
    a, b = np.random.default_rng(5).random(n), np.random.default_rng(6).random(n)
    A, B = dev.asarray(a), dev.asarray(b)
    part, res = dev.malloc(64, np.float64), dev.malloc(1, np.float64)
    calls = {}
    for tag, s in (("generated", src), ("explicit @barrier in the k loop", barrier)):
        k = dev.build_kernel_from_string(s, "streamDot",
                                         defines={"dfloat": "double", "p_B": 256, "p_DOTB": 256})

        def call(k=k):
            k(n, 64, A, B, part, res)
            dev.finish()
        calls[tag] = (call, "")
        call()
        assert abs(res.get()[0] - a @ b) < 1e-9 * (a @ b)
    race(calls, 16 * n / 1e9, "GB/s", reps)


def main(argv=None) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    args = p.parse_args(argv)
    os.environ.setdefault("OMP_PROC_BIND", "true")
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    q = args.quick
    stream(2**16 if q else 2**25, 2 if q else 10)
    reduction(2**16 if q else 2**25, 2 if q else 10)
    bk5(8 if q else 7812, 8, 2 if q else 5)
    pocl_dot(2**16 if q else 2**25, 1 if q else 3)


if __name__ == "__main__":
    main()
