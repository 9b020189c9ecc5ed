"""What NVRTC's ``-minimal`` (okl.runtime.drivers.cuda.MINIMAL) changes: ``python -m
benchmarks.probe_nvrtc_minimal`` on an NVIDIA GPU host.

For okl's cuda translation of every golden kernel that translates without defines, and the
cuda and hip translations of the build benchmark's kernels (benchmarks.bench_build.CASES),
each compiled by NVRTC with okl's options (a Device's ``compile_options``) with and without
MINIMAL:

- whether each compiles either way, and whether the PTX (every source) and the cubin (the
  benchmark kernels) are the same bytes;
- the median time of ``--runs`` compiles of each benchmark kernel either way, in turns.

Every compile gets a unique ``__device__`` global appended (its name is masked before the
outputs are compared): NVRTC 13 answers a source it compiled before from a cache of its own
in 6-11 ms, which would hide what the option saves.

``--corpus DIR [DIR ...]`` instead takes every ``.okl`` file of real-world corpora
(benchmarks.corpus: its generic defines), translated to cuda here, and compiles each both ways
on 8 threads: how many compile either way, whether their cubins are the same bytes, the NVRTC
time saved per file, and the first error of those that compile neither way, by cause.
"""

from __future__ import annotations

import argparse
import glob
import re
import statistics
import time
import uuid
from collections import Counter
from pathlib import Path

from .bench_build import CASES
from .common import KERNELS


def compile_once(nvrtc, source: str, options: list[str], ptx: bool) -> tuple[float, bytes]:
    """(seconds, PTX or cubin with the unique name masked) of one uncached compile."""
    tag = uuid.uuid4().hex[:16]
    program = nvrtc.createProgram(f"{source}\n__device__ int okl_probe_{tag};\n", "okl.cu",
                                  (), ())
    try:
        t0 = time.perf_counter()
        nvrtc.compileProgram(program, options)
        seconds = time.perf_counter() - t0
        out = nvrtc.getPTX(program) if ptx else nvrtc.getCUBIN(program)
    finally:
        nvrtc.destroyProgram(program)
    out = out.encode() if isinstance(out, str) else bytes(out)
    out = out.replace(tag.encode(), b"X" * len(tag))
    return seconds, re.sub(rb"(?m)^//.*$", b"", out) if ptx else out


def corpus(nvrtc, options, dirs: list[str]) -> None:
    """The ``--corpus`` report (see the module)."""
    from concurrent.futures import ThreadPoolExecutor

    from .corpus import corpus_files, translate_one

    files = [(str(p), ("cuda",)) for d in dirs for p in corpus_files(Path(d))]
    sources = [(row["file"], row["modes"]["cuda"]["source"]) for row in map(translate_one, files)
               if row["modes"]["cuda"]["ok"]]

    def both(item):
        path, text = item
        out = []
        for minimal in (False, True):
            try:
                out.append(compile_once(nvrtc, text, options(minimal), False))
            except Exception:
                out.append(None)
        return path, text, out

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(both, sources))
    ok = [(p, o) for p, _, o in results if o[0] is not None and o[1] is not None]
    causes: Counter[str] = Counter()
    for _, text, out in results:
        if out[0] is None and out[1] is None:
            causes[_first_error(nvrtc, text, options(False))] += 1
    saved = [o[0][0] - o[1][0] for _, o in ok]
    print(f"{len(files)} corpus files, {len(sources)} translated to cuda: compiled both ways "
          f"{len(ok)} (cubins identical {sum(o[0][1] == o[1][1] for _, o in ok)}), only without "
          f"-minimal {sum(o[0] is not None and o[1] is None for _, _, o in results)}, only with "
          f"it {sum(o[0] is None and o[1] is not None for _, _, o in results)}, neither "
          f"{sum(causes.values())}; NVRTC time saved per file, median "
          f"{statistics.median(saved) * 1e3 if saved else float('nan'):.1f} ms")
    for cause, count in causes.most_common():
        print(f"  {count:4d} compile neither way: {cause}")


def _first_error(nvrtc, source: str, options: list[str]) -> str:
    """The first error line of NVRTC's log for ``source``, names and numbers masked."""
    program = nvrtc.createProgram(source, "okl.cu", (), ())
    try:
        try:
            nvrtc.compileProgram(program, options)
            return "(compiled this time)"
        except Exception:
            log = nvrtc.getProgramLog(program)
    finally:
        nvrtc.destroyProgram(program)
    line = next((x for x in log.splitlines() if "error" in x), "")
    line = re.sub(r"^.*?error[^:]*:\s*", "", line)
    return re.sub(r"\b0x[0-9a-f]+\b", "N", re.sub(r'"[^"]*"|\'[^\']*\'', "X", line))[:100]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--corpus", nargs="+", metavar="DIR")
    args = parser.parse_args()
    import cupy as cp

    import okl
    from okl.errors import OKLError
    from okl.runtime.drivers.cuda import MINIMAL
    from okl.translation import translate

    nvrtc = cp.cuda.nvrtc
    devices = {m: okl.Device(m) for m in ("cuda", "hip")}
    arch = devices["cuda"].backend.arch
    print(f"NVRTC {'.'.join(map(str, nvrtc.getVersion()))}, {arch}, "
          f"{devices['cuda'].backend.name}")

    def options(mode: str, minimal: bool, ptx: bool) -> list[str]:
        opts = [o for o in devices[mode].backend.compile_options([]) if o != MINIMAL]
        target = f"compute_{arch[3:]}" if ptx else arch
        return [*opts, *([MINIMAL] if minimal else []), f"--gpu-architecture={target}"]

    if args.corpus:
        corpus(nvrtc, lambda minimal: options("cuda", minimal, False), args.corpus)
        return

    sources: list[tuple[str, str, str, bool]] = []  # (name, mode, source, benchmark kernel)
    for file, _, defines, *_ in CASES:
        for mode in ("cuda", "hip"):
            text = translate((KERNELS / file).read_text(), mode, defines=defines).source
            sources.append((file, mode, text, True))
    for path in sorted(glob.glob("tests/golden/*/*.okl")):
        try:
            text = translate(open(path).read(), "cuda", filename=path).source
        except OKLError:
            continue  # a golden of an error, or one that needs defines
        sources.append((path, "cuda", text, False))

    refused = {True: 0, False: 0}
    ptx_differs, cubin_differs = [], []
    for name, mode, text, bench in sources:
        outs = {}
        for minimal in (False, True):
            try:
                outs[minimal] = compile_once(nvrtc, text, options(mode, minimal, True), True)[1]
            except Exception:
                refused[minimal] += 1
        if len(outs) == 2 and outs[True] != outs[False]:
            ptx_differs.append(f"{name} {mode}")
        if bench:
            cubins = [compile_once(nvrtc, text, options(mode, m, False), False)[1]
                      for m in (False, True)]
            if cubins[0] != cubins[1]:
                cubin_differs.append(f"{name} {mode}")
    print(f"{len(sources)} sources ({sum(s[3] for s in sources)} benchmark translations): "
          f"refused without -minimal {refused[False]}, with it {refused[True]}; PTX differs "
          f"for {len(ptx_differs)} {ptx_differs}; cubins of the benchmark kernels differ for "
          f"{len(cubin_differs)} {cubin_differs}")

    bench = [s for s in sources if s[3]]
    times: dict[tuple[str, str, bool], list[float]] = {}
    for _ in range(args.runs):
        for name, mode, text, _ in bench:
            for minimal in (False, True):
                seconds = compile_once(nvrtc, text, options(mode, minimal, False), False)[0]
                times.setdefault((name, mode, minimal), []).append(seconds)
    print(f"\nNVRTC cubin compile, median ms of {args.runs} (each a fresh source), in turns:")
    print(f"  {'kernel':18} {'mode':5} {'without':>9} {'-minimal':>9} {'saved':>7}")
    for name, mode, _, _ in bench:
        full = statistics.median(times[(name, mode, False)]) * 1e3
        mini = statistics.median(times[(name, mode, True)]) * 1e3
        print(f"  {name:18} {mode:5} {full:9.1f} {mini:9.1f} {full - mini:7.1f}")


if __name__ == "__main__":
    main()
