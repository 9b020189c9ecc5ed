"""Every expected output of the golden corpus compiles with the real compiler of its backend.

serial: cc (C99), openmp: cc -fopenmp, opencl: pyopencl build on pocl (-cl-std=CL1.2),
cuda: nvcc -arch=sm_90 -c, hip: clang-14 -x hip for gfx90a (tests/hip_shim).  Nothing skips:
a missing compiler fails with its install command (tests/compilers.py).

All files of the corpus are compiled once per session, in parallel (a thread pool per backend;
CUDA through compilers.cuda_failures, which packs several sources into one nvcc run and
recompiles a failing batch file by file); each file then has its own test that reports its own
compiler log.
"""

from __future__ import annotations

import functools
import os
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

try:  # `python -m pytest` from the repository root
    from tests import compilers
    from tests import golden_support as gs
except ImportError:  # plain `pytest`: tests/ itself is on sys.path
    import compilers
    import golden_support as gs

FILES = gs.expected_outputs()
TIMINGS: dict[str, float] = {}


def _checker(mode: str):
    return {
        "serial": lambda src, name: compilers.compile_c(src, name),
        "openmp": lambda src, name: compilers.compile_c(src, name, openmp=True),
        "opencl": compilers.compile_opencl,
        "hip": compilers.compile_hip,
    }[mode]


def _jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _name(path) -> str:
    return path.relative_to(gs.GOLDEN_DIR).as_posix()


@functools.cache
def failures(mode: str) -> dict[str, str]:
    """{file name: compiler failure} for every expected output of ``mode`` (compiled once)."""
    units = [(_name(path), path.read_text(encoding="utf-8"))
             for _, m, path in FILES if m == mode]
    start = time.perf_counter()
    if mode == "cuda":
        result = compilers.cuda_failures(units)
    else:
        check = _checker(mode)
        if mode == "opencl":
            compilers.pocl_context()  # create the context once, before the threads start

        def one(unit: tuple[str, str]) -> tuple[str, str | None]:
            try:
                check(unit[1], unit[0])
            except AssertionError as exc:
                return unit[0], str(exc)
            return unit[0], None

        with ThreadPoolExecutor(max_workers=_jobs()) as pool:
            result = {name: msg for name, msg in pool.map(one, units) if msg is not None}
    TIMINGS[mode] = time.perf_counter() - start
    return result


def test_every_case_has_outputs():
    assert FILES, "the golden corpus has no expected outputs"
    for mode in gs.MODES:
        assert any(m == mode for _, m, _ in FILES), f"no golden {mode} outputs"


@pytest.mark.parametrize(
    "case,mode,path", FILES, ids=[f"{c.id}.{m}" for c, m, _ in FILES])
def test_compiles(case: gs.Case, mode: str, path):
    message = failures(mode).get(_name(path))
    if message is not None:
        pytest.fail(f"{case.id}: {path.name} does not compile\n{message}", pytrace=False)


def test_report_compile_time(capsys):
    for mode in gs.MODES:
        failures(mode)
    total = sum(TIMINGS.values())
    with capsys.disabled():
        counts = {mode: sum(1 for _, m, _ in FILES if m == mode) for mode in gs.MODES}
        parts = ", ".join(f"{mode} {counts[mode]} files {TIMINGS.get(mode, 0):.1f}s"
                          for mode in gs.MODES)
        print(f"\ngolden compile check: {parts}; total {total:.1f}s")
