"""Uncached translate time per kernel file and mode, split per stage.

    python -m benchmarks.translate_time [--runs 21] [--mode cuda,serial] [--file bk5]
                                        [--profile 30] [--cli]

Times ``okl.translation.translate`` (no cache is involved: the on-disk translation cache lives
in the runtime) on the benchmark kernels with the defines of ``benchmarks/bench_build.py`` and
on the ~500-line macro-heavy file of ``benchmarks/frontend_time.py``, for every mode.  Runs
go round-robin over (file, mode) so that the noise of a shared machine spreads over all of
them; each cell is the median of ``--runs`` translates after one warm-up translate.  Stages
are those ``translate(timings=...)`` reports: the front end's preprocess (okl's in-process
preprocessor, or the cpp subprocess where it declines or ``OKL_CPP`` is set; and the line
map), attributes, parse (pycparser), model (tiles, dims, the kernel model and its checks),
then analyses (bounds, barriers, launch plans), lower (per-kernel lowering for
the target) and emit (C text).  ``--profile N`` instead prints cProfile's top N functions
by own time and by cumulative time over the same translates.

``--cli`` instead times the command line from outside (issue 30): the CPU time (user + sys)
of whole ``oklc --version`` and ``oklc translate -m MODE FILE -D...`` processes (the
console script beside this Python, else ``python -m okl``), and of ``python -c pass`` for
the interpreter's own start, each the median of ``--runs`` runs after one that writes the
bytecode; output to /dev/null.  A process's CPU time, unlike its wall time, does not grow
while other jobs hold the cores (much: a shared machine still slows every cache miss).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from okl.modes import MODES
from okl.runtime.properties import host_cpu
from okl.translation import LOWER_STAGES, translate

from .bench_build import CASES
from .common import KERNELS
from .frontend_time import STAGES as FRONT_STAGES
from .frontend_time import generate

STAGES = (*FRONT_STAGES, *LOWER_STAGES)
GENERATED = "frontend_time.okl"  # the name under which the generated file is translated


def inputs(only: list[str] | None) -> list[tuple[str, str, dict, str]]:
    """(label, source, defines, filename) of every file to translate."""
    out = [(file, (KERNELS / file).read_text(), defines, str(KERNELS / file))
           for file, _, defines, *_ in CASES]
    out.append((GENERATED, generate(), {}, str(KERNELS / GENERATED)))
    if only:
        out = [x for x in out if any(o in x[0] for o in only)]
    return out


def measure(files, modes: list[str], runs: int) -> dict[tuple[str, str], dict[str, list]]:
    """Seconds per stage and in total for every (file, mode), ``runs`` samples each."""
    laps = {(f[0], m): {s: [] for s in (*STAGES, "total", "cpu")} for f in files for m in modes}
    for _label, src, defines, path in files:  # warm-up: imports, first use of every pass
        for m in modes:
            translate(src, m, defines=defines, filename=path)
    for _ in range(runs):
        for label, src, defines, path in files:
            for m in modes:
                t: dict[str, float] = {}
                cpu = _cpu_seconds()
                start = time.perf_counter()
                translate(src, m, defines=defines, filename=path, timings=t)
                cell = laps[(label, m)]
                cell["total"].append(time.perf_counter() - start)
                cell["cpu"].append(_cpu_seconds() - cpu)
                for s in STAGES:
                    cell[s].append(t[s])
    return laps


def _cpu_seconds() -> float:
    """CPU time of this process and its finished children (cpp): unlike wall time, it does
    not grow while other jobs hold the cores, so it compares runs on a busy machine."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def profile(files, modes: list[str], runs: int, top: int) -> None:
    for _label, src, defines, path in files:
        for m in modes:
            translate(src, m, defines=defines, filename=path)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(runs):
        for _label, src, defines, path in files:
            for m in modes:
                translate(src, m, defines=defines, filename=path)
    prof.disable()
    stats = pstats.Stats(prof)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumtime").print_stats(top)


def cli_times(files, modes: list[str], runs: int) -> None:
    """Print the median CPU time of whole ``oklc`` processes (see the module's docstring)."""
    script = Path(sys.executable).with_name("oklc")
    oklc = [str(script)] if script.exists() else [sys.executable, "-m", "okl"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    commands = [("python -c pass", [sys.executable, "-c", "pass"]),
                ("oklc --version", [*oklc, "--version"])]
    for label, _src, defines, path in files:
        if label == GENERATED:
            continue  # made in memory: no file for a command line
        flags = [x for name, value in defines.items() for x in ("-D", f"{name}={value}")]
        commands += [(f"translate {label} {m}", [*oklc, "translate", "-m", m, path, *flags])
                     for m in modes]
    laps: dict[str, list[float]] = {label: [] for label, _ in commands}
    for _label, argv in commands:  # writes the bytecode; a failing command stops here
        subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=True)
    for _ in range(runs):  # round-robin, as the translates above
        for label, argv in commands:
            before = _children_cpu()
            subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=True)
            laps[label].append(_children_cpu() - before)
    print(f"CPU time (user + sys) of whole processes, median of {runs} runs, ms; "
          f"{host_cpu()}, {_cores()} cores; python {platform.python_version()}; "
          f"{' '.join(oklc)}")
    for label, _ in commands:
        xs = laps[label]
        print(f"  {label:<32}{statistics.median(xs) * 1e3:8.1f}   (min {min(xs) * 1e3:.1f}, "
              f"max {max(xs) * 1e3:.1f})")


def _children_cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return children.ru_utime + children.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--mode", default=",".join(MODES), help="comma list (default: all)")
    ap.add_argument("--file", action="append", help="only files whose name holds this")
    ap.add_argument("--profile", type=int, metavar="N", help="print cProfile's top N instead")
    ap.add_argument("--cli", action="store_true",
                    help="time whole oklc processes (--version, translate) instead")
    args = ap.parse_args()
    modes = [m.strip() for m in args.mode.split(",") if m.strip()]
    files = inputs(args.file)
    if args.cli:
        cli_times(files, modes, args.runs)
        return
    if args.profile:
        profile(files, modes, args.runs, args.profile)
        return
    laps = measure(files, modes, args.runs)
    cpp = subprocess.run(["cpp", "--version"], capture_output=True, text=True)
    print(f"median of {args.runs} uncached translates per cell, ms; {host_cpu()}, "
          f"{_cores()} cores; python {platform.python_version()}; "
          f"{cpp.stdout.splitlines()[0] if cpp.stdout else 'cpp ?'}")
    print()
    print("wall time:")
    print(f"{'file':<18}" + "".join(f"{m:>9}" for m in modes))
    for label, *_ in files:
        print(f"{label:<18}" + "".join(
            f"{statistics.median(laps[(label, m)]['total']) * 1e3:9.1f}" for m in modes))
    print("CPU time (this process and cpp):")
    for label, *_ in files:
        print(f"{label:<18}" + "".join(
            f"{statistics.median(laps[(label, m)]['cpu']) * 1e3:9.1f}" for m in modes))
    print()
    print("per stage (median wall ms): " + ", ".join(STAGES))
    for label, *_ in files:
        for m in modes:
            cell = laps[(label, m)]
            parts = " ".join(f"{statistics.median(cell[s]) * 1e3:6.1f}" for s in STAGES)
            print(f"  {label:<18}{m:<7} {parts}   total "
                  f"{statistics.median(cell['total']) * 1e3:6.1f}")


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


if __name__ == "__main__":
    main()
