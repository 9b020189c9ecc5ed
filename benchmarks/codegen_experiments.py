"""Evidence for the CPU code-generation findings: okl's output, hand-edited variants of it,
and the hand-written peer, compiled with okl's flags and timed side by side (one thread).

    python -m benchmarks.codegen_experiments [--quick] [--only reduction|dot|bk5|pocl ...]

Each experiment translates a benchmark kernel with okl (serial mode), applies a change that
a compiler could make (each variant says which), checks the result against the unmodified
translation, and prints best / median throughput over interleaved repetitions:

- reduction: the per-lane running sums across the plain ``for u`` loop around the @inner
  loop in registers (cpu.registers), against one slot per lane in memory (the translation
  before that pass), the u loop jammed into the lanes or moved inside them;
- dot: the same for streamDot, float (the sums fit registers) and double (they do not);
- bk5: BK5's GPU algorithm (k-slabs through @shared memory, @exclusive columns) against
  the same translation before cpu.ahead, with cpu.prefetch asking for runs of up to 8 lines
  (as before cpu.ahead), before cpu.collapse, before cpu.prefetch (and each later pass),
  before cpu.pad (and cpu.prefetch), before
  cpu.forward and cpu.hoist (and cpu.pad, cpu.prefetch), and before cpu.columns and the
  chained-sum interchange (and cpu.pad, cpu.prefetch) (same bits), the
  hand C's whole-element algorithm, and that hand C with every sum in OKL's order
  (peers/openmp/bk5_okl_order.c: what a careful CPU programmer gets without reassociating);
  ``--threads 2`` runs it on two threads (okl's openmp translation, wall time);
- blocksolver: the translation (its unrolled divmod nest built preferring 256-bit
  vectors, _okl_narrow_vectors) against the same C without that attribute, and the hand C;
- dgvolume: the translation (its readers read ``q``: cpu.staging) against the translation
  before cpu.staging (each block copies its elements' fields into @shared memory first, as on
  a GPU), and the hand C;
- pocl: an explicit barrier in a plain loop around an @inner block (needs a CPU OpenCL
  device).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import re
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable

import numpy as np

from okl.targets.serial import ENTRY_PREFIX

from .common import CPU_FLAGS, KERNELS, PEERS, c_compiler, omp_threads

P = ctypes.c_void_p
WORK = tempfile.mkdtemp(prefix="okl-codegen-")


def translate(file: str, defines: dict, mode: str = "serial") -> str:
    from okl.translation import translate as tr
    src = (KERNELS / file).read_text()
    out = tr(src, mode, defines=defines, filename=str(KERNELS / file),
             line_directives=False).source
    return out.replace("static void", "void")  # the entry points are internal-linkage now


def build(src: str, tag: str) -> tuple[ctypes.CDLL, float]:
    path = os.path.join(WORK, tag + ".c")
    with open(path, "w") as f:
        f.write(src)
    t0 = time.perf_counter()
    subprocess.run([c_compiler(), *CPU_FLAGS, path, "-o", path[:-2] + ".so", "-lm"], check=True)
    return ctypes.CDLL(path[:-2] + ".so"), time.perf_counter() - t0


def okl_entry(lib: ctypes.CDLL, kernel: str, *args) -> Callable[[], None]:
    """A call of a translation's ``_okl_entry_<kernel>(void **args, stop)`` (okl's CPU entry,
    okl.transforms.cpu.lower.entry_point): each of ``args`` is a ctypes scalar, passed by its
    address (set its ``value`` between calls to change it), or an int, the address of a
    pointer argument's data.  The Ctrl-C flag ``stop`` stays 0."""
    f, never = getattr(lib, ENTRY_PREFIX + kernel), ctypes.c_int(0)
    slots = (ctypes.c_void_p * len(args))(
        *[a if isinstance(a, int) else ctypes.addressof(a) for a in args])

    def call(_keep=args) -> None:  # the scalars live as long as the call
        f(slots, ctypes.byref(never))
    return call


def sub(pattern: str, repl: str, text: str) -> str:
    new, n = re.subn(pattern, repl, text)
    if n == 0:
        raise RuntimeError(f"pattern not found in the translation: {pattern}")
    return new


def race(calls: dict, work: float, unit: str, reps: int, rounds: int = 3,
         clock=time.perf_counter) -> None:
    """``clock``: ``time.thread_time`` for code that runs on the calling thread alone (one
    OpenMP thread runs there): the time this thread ran, not the time other engineers' jobs
    held the core; wall time where other threads work (PoCL's)."""
    times = {k: [] for k in calls}
    for fn, _ in calls.values():
        fn()
    for _ in range(rounds):
        for k, (fn, _) in calls.items():
            for _ in range(reps):
                t0 = clock()
                fn()
                times[k].append(clock() - t0)
    for k, (_, extra) in calls.items():
        t = times[k]
        print(f"  {k:52} best {work / min(t):9.4g} {unit}  median "
              f"{work / statistics.median(t):9.4g}  {extra}")


def reduction(n: int, reps: int) -> None:
    print(f"reduceShared, float, n = {n}, one thread: the running sums across the plain "
          f"`for u` loop in registers for full rows (cpu.registers), against one @exclusive "
          f"slot per lane in memory (the translation before it), the u loop jammed or inside")
    gen = translate("reduction.okl", {"p_B": 256, "p_U": 32})
    # cpu.registers' block: the full rows' loop, then the rest
    u_loop = re.compile(r"\{\n      int u = 0;\n.*?\n    \}\n", re.S)
    in_memory = ("    for (int u = 0; u < 32; ++u) {\n      #pragma GCC ivdep\n"
                 "      for (int t = 0; t < ((256 < N - (blk * 32 + u) * 256) ? (256) : "
                 "(N - (blk * 32 + u) * 256)); ++t) {\n"
                 "        const int i = (blk * 32 + u) * 256 + t;\n        r_x[t] += x[i];\n"
                 "      }\n    }\n")
    head = "    for (int u = 0; u < 32; u += 4) {\n      if ((blk * 32 + u + 4) * 256 <= N) {\n"
    jam = (head + "        #pragma GCC ivdep\n        for (int t = 0; t < 256; ++t) {\n"
           "          const int i = (blk * 32 + u) * 256 + t;\n"
           "          r_x[t] += x[i];\n          r_x[t] += x[i + 256];\n"
           "          r_x[t] += x[i + 512];\n          r_x[t] += x[i + 768];\n        }\n"
           "      } else {\n        for (int v = u; v < u + 4; ++v)\n"
           "          for (int t = 0; t < 256; ++t)\n"
           "            if ((blk * 32 + v) * 256 + t < N) r_x[t] += x[(blk * 32 + v) * 256 + t];"
           "\n      }\n    }\n")
    inside = ("    #pragma GCC ivdep\n    for (int t = 0; t < 256; ++t) {\n"
              "      float acc = r_x[t];\n      for (int u = 0; u < 32; ++u) {\n"
              "        const int i = (blk * 32 + u) * 256 + t;\n"
              "        if (i < N) acc += x[i];\n      }\n      r_x[t] = acc;\n    }\n")
    first = gen.index("void reduceShared(")

    def variant(text: str) -> str:
        match = u_loop.search(gen, first)
        if match is None:
            raise RuntimeError("the u loop of reduceShared is not in the translation")
        return gen[:match.start()] + text.lstrip() + gen[match.end():]
    x = np.random.default_rng(3).random(n, dtype=np.float32)
    partial = np.zeros(n // 8192 + 1, np.float32)
    calls, totals = {}, {}
    for tag, src in (("generated", gen), ("slots in memory (before cpu.registers)",
                                          variant(in_memory)),
                     ("u jammed 4 into the lanes", variant(jam)),
                     ("u loop inside the lanes", variant(inside))):
        lib, ct = build(src, "red_" + re.sub(r"\W", "", tag)[:10])
        t = totals[tag] = np.zeros(1, np.float32)
        calls[tag] = (okl_entry(lib, "reduceShared", ctypes.c_int(n), x.ctypes.data,
                                partial.ctypes.data, t.ctypes.data),
                      f"(compile {ct * 1e3:.0f} ms)")
    lib, ct = build((PEERS / "openmp" / "reduction.c").read_text(), "red_hand")
    h = lib.reduce_blocked
    h.argtypes = [ctypes.c_int, P, P, P]
    t = np.zeros(1, np.float32)
    totals["hand"] = t
    calls["hand C (same blocking)"] = (
        (lambda: h(n, x.ctypes.data, partial.ctypes.data, t.ctypes.data)),
        f"(compile {ct * 1e3:.0f} ms)")
    race(calls, 4 * n / 1e9, "GB/s", reps, clock=time.thread_time)
    ref = x.astype(np.float64).sum()
    assert all(abs(v[0] - ref) < 1e-4 * ref for v in totals.values())



def dot(n: int, reps: int) -> None:
    """streamDot (BabelStream's dot, 256 lanes of running sums, 64 blocks) as okl translates
    it, with the rows' running sums in memory as before cpu.registers, and the hand C."""
    for fp, dtype in (("float", np.float32), ("double", np.float64)):
        print(f"streamDot, {fp}, n = {n}, one thread: cpu.registers' full rows (the running "
              f"sums in registers where 256 of them fit 1 KiB) against the sums in memory")
        gen = translate("stream.okl", {"dfloat": fp, "p_B": 256, "p_DOTB": 256})
        first = gen.index("void streamDot(")
        in_memory = ("    for (int k = 0; k < chunk; k += 256) {\n      #pragma GCC ivdep\n"
                     "      for (int t = 0; t < ((256 < N - (blk * chunk + k)) ? (256) : "
                     "(N - (blk * chunk + k))); ++t) {\n"
                     "        const int i = blk * chunk + k + t;\n"
                     "        r_sum[t] += a[i] * b[i];\n      }\n    }\n")
        block = re.compile(r"\{\n      int k = 0;\n.*?\n    \}\n", re.S).search(gen, first)
        variants = {"generated": gen}
        if block is not None:  # fp64's 2 KiB of sums are left in memory
            variants["sums in memory (before cpu.registers)"] = \
                gen[:block.start()] + in_memory.lstrip() + gen[block.end():]
        g = np.random.default_rng(5)
        a, b = g.random(n).astype(dtype), g.random(n).astype(dtype)
        part, res = np.zeros(64, dtype), {k: np.zeros(1, dtype) for k in [*variants, "hand"]}
        calls = {}
        for tag, src in variants.items():
            lib, ct = build(src, f"dot_{fp}_" + re.sub(r"\W", "", tag)[:10])
            calls[tag] = (okl_entry(lib, "streamDot", ctypes.c_int(n), ctypes.c_int(64),
                                    a.ctypes.data, b.ctypes.data, part.ctypes.data,
                                    res[tag].ctypes.data), f"(compile {ct * 1e3:.0f} ms)")
        lib, ct = build(f"#define dfloat {fp}\n" + (PEERS / "openmp" / "stream.c").read_text(),
                        f"dot_{fp}_hand")
        h = lib.stream_dot
        h.argtypes = [ctypes.c_int, P, P, P]
        calls["hand C"] = ((lambda h=h, a=a, b=b, o=res["hand"]:
                            h(n, a.ctypes.data, b.ctypes.data, o.ctypes.data)),
                           f"(compile {ct * 1e3:.0f} ms)")
        race(calls, 2 * a.itemsize * n / 1e9, "GB/s", reps, clock=time.thread_time)
        ref = a.astype(np.float64) @ b.astype(np.float64)
        assert all(abs(v[0] - ref) < 1e-4 * ref for v in res.values())
        if len(variants) > 1:  # the same sums in the same order: the same bits
            assert res["generated"][0] == res["sums in memory (before cpu.registers)"][0]

@contextlib.contextmanager
def _bk5_passes_off():
    """okl's CPU lowering without cpu.columns and cpu.interchange's chained sums: the
    translation as it was before them (the same sums in the same order)."""
    import okl.transforms.cpu.interchange as interchange
    import okl.transforms.cpu.lower as lower
    saved = lower.defer_column_sums, interchange._chained
    lower.defer_column_sums = lambda kernel: None
    interchange._chained = lambda body: False
    try:
        yield
    finally:
        lower.defer_column_sums, interchange._chained = saved


@contextlib.contextmanager
def _forward_hoist_off():
    """Without cpu.forward and cpu.hoist (the same values, the same sums in the same order)."""
    with _lower_pass_off("forward_shared_copies", None), \
            _lower_pass_off("hoist_constant_fills", None):
        yield


@contextlib.contextmanager
def _lower_pass_off(name: str, result):
    """okl's CPU lowering with its pass ``name`` (a function okl.transforms.cpu.lower calls)
    doing nothing and returning ``result``: the translation as it was before that pass."""
    import okl.transforms.cpu.lower as lower
    saved = getattr(lower, name)
    setattr(lower, name, lambda *args: result)
    try:
        yield
    finally:
        setattr(lower, name, saved)


def _pad_off():
    """Without cpu.pad (the same sums in the same order)."""
    return _lower_pass_off("pad_lane_rows", 0)


def _collapse_off():
    """Without cpu.collapse (the same iterations in the same order)."""
    return _lower_pass_off("collapse_planes", 0)


def _staging_off():
    """Without cpu.staging (the same values read from the @shared copy)."""
    return _lower_pass_off("forward_staged_arguments", 0)


def _prefetch_off():
    """Without cpu.prefetch (the same code less the prefetches)."""
    return _lower_pass_off("prefetch_next_slabs", 0)


def _ahead_off():
    """Without cpu.ahead (the same code less the next element's prefetches)."""
    return _lower_pass_off("prefetch_next_elements", 0)


@contextlib.contextmanager
def _slab_runs(lines: int):
    """cpu.prefetch asking for runs shorter than ``lines`` lines."""
    import okl.transforms.cpu.prefetch as prefetch
    saved = prefetch.LONG_RUN
    prefetch.LONG_RUN = lines
    try:
        yield
    finally:
        prefetch.LONG_RUN = saved


def _buckets_off():
    """Without cpu.buckets (the same (colour, lane) pairs in the same order, by a scan)."""
    return _lower_pass_off("list_lanes_by_value", 0)


def bk5(E: int, nq: int, reps: int, threads: int = 1) -> None:
    mode = "openmp" if threads > 1 else "serial"
    print(f"BK5, N = {nq - 1}, {E} elements, {threads} thread(s): okl's translation, the same "
          f"before each of its CPU passes (newest first; each without the passes after it), "
          f"the hand C peer with every sum in OKL's order, and the hand C peer (it "
          f"reassociates its D^T sums)")
    from .bench_bk5 import reference
    defines = {"dfloat": "double", "p_Nq": nq}
    with _ahead_off():
        with _slab_runs(8):
            unahead = translate("bk5.okl", defines, mode)
        with _collapse_off():
            with _bk5_passes_off(), _pad_off(), _prefetch_off():
                before = translate("bk5.okl", defines, mode)
            with _forward_hoist_off(), _pad_off(), _prefetch_off():
                unforwarded = translate("bk5.okl", defines, mode)
            with _pad_off(), _prefetch_off():
                unpadded = translate("bk5.okl", defines, mode)
            with _prefetch_off():
                unprefetched = translate("bk5.okl", defines, mode)
            uncollapsed = translate("bk5.okl", defines, mode)
    variants = {"generated": translate("bk5.okl", defines, mode),
                "before cpu.ahead (and slab runs < 8 lines)": unahead,
                "before cpu.collapse": uncollapsed,
                "before cpu.prefetch": unprefetched,
                "before cpu.pad": unpadded,
                "before cpu.forward and cpu.hoist": unforwarded,
                "before cpu.columns": before}
    np_ = nq ** 3
    g = np.random.default_rng(4)
    H = {"ggeo": g.random(E * 7 * np_), "D": g.random(nq * nq) * 2 - 1,
         "q": g.random(E * np_) * 2 - 1}
    ref = reference(np, H, nq)
    calls, outs = {}, {}
    inputs = (H["ggeo"].ctypes.data, H["D"].ctypes.data, H["q"].ctypes.data)

    def output(tag: str) -> int:
        outs[tag] = np.zeros(E * np_)
        return outs[tag].ctypes.data

    for tag, src in variants.items():
        lib, ct = build(src, f"bk5_{nq}_" + re.sub(r"\W", "", tag)[:12])
        calls[tag] = (okl_entry(lib, "bk5", ctypes.c_int(E), ctypes.c_double(1.0), *inputs,
                                output(tag)), f"(compile {ct * 1e3:.0f} ms)")
    for tag, peer in (("hand C, OKL's order", "bk5_okl_order.c"), ("hand C", "bk5.c")):
        lib, ct = build(f"#define p_Nq {nq}\n" + (PEERS / "openmp" / peer).read_text(),
                        f"bk5_{nq}_" + peer[:-2])
        h = lib.bk5
        h.argtypes = [ctypes.c_int, ctypes.c_double, P, P, P, P]
        out = output(tag)
        calls[tag] = ((lambda h=h, out=out: h(E, 1.0, *inputs, out)),
                      f"(compile {ct * 1e3:.0f} ms)")
    with omp_threads(threads):
        race(calls, E * np_ / 1e9, "GDOF/s", reps,
             clock=time.thread_time if threads == 1 else time.perf_counter)
    scale = np.abs(ref).max()
    assert all(np.abs(v - ref).max() < 1e-11 * scale for v in outs.values())
    # the rewrite keeps every sum's order: the same bits as before it
    assert np.array_equal(outs["generated"], outs["before cpu.columns"])
    assert np.array_equal(outs["generated"], outs["before cpu.forward and cpu.hoist"])
    assert np.array_equal(outs["generated"], outs["before cpu.pad"])
    assert np.array_equal(outs["generated"], outs["before cpu.prefetch"])
    assert np.array_equal(outs["generated"], outs["before cpu.collapse"])
    assert np.array_equal(outs["generated"], outs["before cpu.ahead (and slab runs < 8 lines)"])


def blocksolver(grid: int, reps: int) -> None:
    print(f"blocksolver, {grid}^3 block rows, 15 sweeps, one thread: okl's translation (its "
          f"unrolled 5 x 5 lane nest built preferring 256-bit vectors), the same C without "
          f"that attribute (the compiler's own choice of width), and the hand C peer")
    from .bench_blocksolver import matrix, passes
    H = matrix(grid)
    plan = passes(H["colorPtr"])
    gen = translate("blocksolver.okl", {"p_R": 10})
    variants = {"generated": gen,
                "without the 256-bit preference": sub(r"_okl_narrow_vectors void", "void",
                                                      gen)}
    args = [H[k] for k in ("rowPtr", "colIdx", "A", "Dinv", "b")]
    n5 = 5 * (len(H["rowPtr"]) - 1)
    calls, outs = {}, {}
    for tag, src in variants.items():
        lib, ct = build(src, "bs_" + re.sub(r"\W", "", tag)[:12])
        x = outs[tag] = np.zeros(n5)
        lo, hi = ctypes.c_int(0), ctypes.c_int(0)
        sweep = okl_entry(lib, "blockSweep", lo, hi, *[a.ctypes.data for a in args],
                          x.ctypes.data)

        def call(x=x, lo=lo, hi=hi, sweep=sweep) -> None:
            x[:] = 0
            for lo.value, hi.value in plan:
                sweep()
        calls[tag] = (call, f"(compile {ct * 1e3:.0f} ms)")
    lib, ct = build((PEERS / "openmp" / "blocksolver.c").read_text(), "bs_hand")
    hand, xh = lib.blockSweep, np.zeros(n5)
    hand.argtypes = [ctypes.c_int, ctypes.c_int, P, P, P, P, P, P]
    outs["hand C"] = xh

    def hand_call() -> None:
        xh[:] = 0
        for r0, r1 in plan:
            hand(r0, r1, *[a.ctypes.data for a in args], xh.ctypes.data)
    calls["hand C"] = (hand_call, f"(compile {ct * 1e3:.0f} ms)")
    race(calls, sum(r1 - r0 for r0, r1 in plan) / 1e6, "M rows/s", reps,
         clock=time.thread_time)
    # the attribute changes the vector width, not the arithmetic
    assert np.array_equal(outs["generated"], outs["without the 256-bit preference"])
    assert np.abs(outs["generated"] - xh).max() < 1e-12 * np.abs(xh).max()


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


def dgvolume(E: int, reps: int) -> None:
    print(f"dgvolume, N = 5, {E} elements, one thread: okl's translation (its readers read q), "
          f"the translation before cpu.staging (each block of 4 elements copies its fields "
          f"into @shared s_q first, as on a GPU), and the hand C peer (it reads q)")
    np_, block = 56, 4
    defines = {"dfloat": "double", "p_Np": np_, "p_NblockV": block}
    with _staging_off():
        staged = translate("dgvolume.okl", defines)
    variants = {"generated": translate("dgvolume.okl", defines),
                "before cpu.staging": staged}
    g = np.random.default_rng(8)
    vgeo, DT, q = g.random(E * 9) * 2 - 1, g.random(3 * np_ * np_) * 2 - 1, \
        g.random(E * 4 * np_) * 2 - 1
    calls, outs = {}, {}
    for tag, text in variants.items():
        lib, ct = build(text, "dg_" + re.sub(r"\W", "", tag)[:12])
        out = outs[tag] = np.zeros(E * 4 * np_)
        calls[tag] = (okl_entry(lib, "dgvolume", ctypes.c_int(E), vgeo.ctypes.data,
                                DT.ctypes.data, q.ctypes.data, out.ctypes.data),
                      f"(compile {ct * 1e3:.0f} ms)")
    lib, ct = build((PEERS / "openmp" / "dgvolume.c").read_text(), "dg_hand")
    hand, outh = lib.dgvolume, np.zeros(E * 4 * np_)
    hand.argtypes = [ctypes.c_int, P, P, P, P]
    outs["hand C"] = outh
    calls["hand C"] = ((lambda: hand(E, vgeo.ctypes.data, DT.ctypes.data, q.ctypes.data,
                                     outh.ctypes.data)), f"(compile {ct * 1e3:.0f} ms)")
    race(calls, 24 * np_ * np_ * E / 1e9, "GFLOP/s", reps, clock=time.thread_time)
    # s_q held q's values: the same sums of the same numbers
    assert np.array_equal(outs["generated"], outs["before cpu.staging"])
    assert np.abs(outs["generated"] - outh).max() < 1e-12 * np.abs(outh).max()


def airfoil(n: int, reps: int) -> None:
    """Airfoil's hierarchical res_calc (every block colour's blocks, one thread): okl's
    translation (each block's lanes listed by edge colour, cpu.buckets), the one before (a
    scan of the block's lanes per edge colour), and the hand C (OP2's OpenMP back end: each
    block's edges in order, adding into res directly: another algorithm, other sums)."""
    from . import bench_airfoil as af
    m = af.mesh(n)
    print(f"airfoil resCalcHier, {m['ncell']} cells, {m['nedge']} edges, blocks of "
          f"{af.BLOCK}, one thread: okl's translation, the one before cpu.buckets, the hand C")
    defines = {"p_B": af.BLOCK, **af.DEFINES}
    with _buckets_off():
        scanned = translate("airfoil.okl", defines)
    variants = {"generated": translate("airfoil.okl", defines),
                "before cpu.buckets": scanned}
    q = af.initial_state(m)
    adt = af.ref_adt(np, m["cnode"], m["x"], q)
    he = [m[f"he_{k}"] for k in ("node", "cell", "col", "loc", "boff", "bcells", "bncol")]
    ranges = [(int(a), int(b)) for a, b in zip(m["he_brange"][:-1], m["he_brange"][1:],
                                               strict=True) if b > a]
    calls, outs = {}, {}
    for tag, text in variants.items():
        lib, ct = build(text, "af_" + re.sub(r"\W", "", tag)[:12])
        res = outs[tag] = np.zeros(4 * m["ncell"])
        start, end = ctypes.c_int(0), ctypes.c_int(0)
        f = okl_entry(lib, "resCalcHier", start, end, *[a.ctypes.data for a in he],
                      m["x"].ctypes.data, q.ctypes.data, adt.ctypes.data, res.ctypes.data)

        def run(f=f, start=start, end=end, res=res) -> None:
            res[:] = 0
            for a, b in ranges:
                start.value, end.value = a, b
                f()
        calls[tag] = (run, f"(compile {ct * 1e3:.0f} ms)")
    peer = "".join(f"#define {k} {v}\n" for k, v in af.DEFINES.items())
    lib, ct = build(peer + (PEERS / "openmp" / "airfoil.c").read_text(), "af_hand")
    hand, outh = lib.res_calc_hier, np.zeros(4 * m["ncell"])
    hand.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, *[P] * 7]
    hand_args = [m["he_node"], m["he_cell"], m["he_col"], m["x"], q, adt, outh]

    def hand_run() -> None:
        outh[:] = 0
        for a, b in ranges:
            hand(a, b, af.BLOCK, *[x.ctypes.data for x in hand_args])
    calls["hand C"] = (hand_run, f"(compile {ct * 1e3:.0f} ms)")
    race(calls, 1e-6 * m["nedge"], "M edges/s", reps, clock=time.thread_time)
    # the same (colour, lane) pairs in the same order: the same bits
    assert np.array_equal(outs["generated"], outs["before cpu.buckets"])
    assert np.abs(outs["generated"] - outh).max() < 1e-12 * np.abs(outh).max()


def main(argv=None) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    p.add_argument("--threads", type=int, default=1,
                   help="bk5 only: OpenMP threads (2: okl's openmp translation, the suite's "
                        "openmp row sizes)")
    p.add_argument("--only", action="append",
                   choices=("reduction", "dot", "bk5", "blocksolver", "dgvolume", "airfoil",
                            "pocl"),
                   help="run only these experiments (repeatable; default all)")
    args = p.parse_args(argv)
    only = set(args.only or ("reduction", "dot", "bk5", "blocksolver", "dgvolume", "airfoil",
                             "pocl"))
    os.environ["OMP_NUM_THREADS"] = "1"  # the peers' parallel loops: one thread, as okl's
    os.environ.setdefault("OMP_PROC_BIND", "true")
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    q = args.quick
    if "reduction" in only:
        reduction(2**16 if q else 2**25, 2 if q else 10)
    if "dot" in only:
        dot(2**16 if q else 2**25, 2 if q else 10)
    for nq in (4, 6, 8, 10) if "bk5" in only else ():
        dofs = 500_000 if args.threads == 1 else 4_000_000  # bench_bk5's sizes
        bk5(8 if q else round(dofs / nq**3), nq, 2 if q else 10, args.threads)
    if "blocksolver" in only:
        blocksolver(12 if q else 28, 2 if q else 10)
    if "dgvolume" in only:
        dgvolume(400 if q else 25000, 2 if q else 10)
    if "airfoil" in only:
        airfoil(24 if q else 600, 2 if q else 10)
    if "pocl" in only:
        pocl_dot(2**16 if q else 2**25, 1 if q else 3)


if __name__ == "__main__":
    main()
