"""Real-compiler checks for generated backend sources (test-only helpers).

Every checker takes the generated source text and a short name for messages, compiles it with
the real compiler for its backend in a temporary directory, returns None on success and raises
AssertionError (command, exit code, full compiler log, numbered source) on failure.  A missing
compiler is also an AssertionError naming the install command: these checks never skip.

Install on a fresh Debian 12 / Python 3.11 machine (checked on a CI-like one, except nvcc):

    apt-get update
    apt-get install -y --no-install-recommends gcc g++ clang-14 pocl-opencl-icd
    pip install pyopencl pocl-binary-distribution

  * gcc            compile_c (``cc``; env CC overrides, e.g. CC=clang-14).  ``-fopenmp`` needs
                   nothing else (libgomp/omp.h come with gcc).
  * g++            host compiler that nvcc calls for ``nvcc -c``.
  * clang-14       compile_hip.  The package alone is enough: its dependencies bring clang's
                   resource headers (libclang-common-14-dev) and libc/libstdc++ headers; with
                   -nogpulib -nogpuinc --cuda-device-only -S clang runs in-process and needs no
                   ROCm, no llvm-14 tools, no lld.  HIP names come from tests/hip_shim (test-only).
  * pyopencl + pocl-opencl-icd (+ pocl-binary-distribution)
                   compile_opencl, on the first PoCL device that passes okl's probe build
                   (okl.runtime.drivers.clselect).  The ICD loader bundled in the pyopencl
                   binary wheel reads /etc/OpenCL/vendors (Debian's PoCL 3.1, LLVM 15, which
                   picks its kernel library by CPU features and so works on any x86-64 CPU)
                   and pyopencl/.libs (the PoCL 3.0-rc2 / LLVM 14 of the pocl wheel, which
                   fails with "unknown target CPU 'generic'" on CPUs newer than LLVM 14).
  * nvcc           compile_cuda (CUDA 13; /usr/local/bin/nvcc on CI; env NVCC overrides).  Compile
                   only, no GPU.  Fresh machine (not verified here): NVIDIA's Debian 12 apt
                   repository (cuda-keyring package), then
                   ``apt-get install -y cuda-nvcc-13-0 cuda-cudart-dev-13-0``.

Environment overrides: CC (C compiler command, may contain arguments), NVCC (nvcc path),
OKL_HIP_CLANG (clang used for HIP, default clang-14).

Cost per kernel on a 2-core CI-like machine (first call / warm): C 0.03 / 0.03 s, HIP 0.07 /
0.06 s, OpenCL on pocl 0.6 / 0.11 s (the first call starts the platform and loads pocl's kernel
library; pocl's own cache makes an unchanged source 0.03 s), CUDA ``nvcc -c`` 1.2 / 0.85 s,
nearly all of it fixed start-up cost.  So for CUDA, compile_cuda_many() / cuda_failures() pack
many sources into one nvcc translation unit per batch and run batches in parallel: 16 generated
kernels take 1.1 s instead of 13.7 s.  Each source gets its own namespace, macros it defines are
#undef'd after it, and #includes are shared only between sources with identical ones, so one
source cannot lean on another's helpers; a failing batch is recompiled source by source, so
results and error logs are always per source.
"""

from __future__ import annotations

import math
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import threading
import warnings
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

__all__ = [
    "APT_INSTALL",
    "PIP_INSTALL",
    "HIP_SHIM_DIR",
    "require_tool",
    "compile_c",
    "compile_opencl",
    "pocl_context",
    "compile_cuda",
    "compile_cuda_many",
    "cuda_failures",
    "compile_hip",
]

APT_INSTALL = (
    "apt-get update && apt-get install -y --no-install-recommends gcc g++ clang-14 "
    "pocl-opencl-icd"
)
PIP_INSTALL = "pip install pyopencl pocl-binary-distribution"
NVCC_INSTALL = (
    "install the CUDA compiler (CUDA 13): add NVIDIA's Debian 12 apt repository (cuda-keyring) "
    "and run `apt-get install -y cuda-nvcc-13-0 cuda-cudart-dev-13-0`, or point the NVCC "
    "environment variable at an existing nvcc"
)

HIP_SHIM_DIR = Path(__file__).resolve().parent / "hip_shim"
HIP_SHIM_HEADER = HIP_SHIM_DIR / "okl_hip_shim.h"

CUDA_ARCH = "sm_90"
HIP_ARCH = "gfx90a"
OPENCL_OPTIONS = ("-cl-std=CL1.2",)
C_FLAGS = (
    "-std=c99",
    "-O1",
    "-Wall",
    "-Werror=implicit-function-declaration",
    # Errors by default in gcc >= 14 and clang >= 16: keep CI on gcc 12 as strict as newer hosts.
    "-Werror=implicit-int",
    "-Werror=incompatible-pointer-types",
    "-Werror=int-conversion",
)
HIP_FLAGS = (
    "-x",
    "hip",
    f"--offload-arch={HIP_ARCH}",
    "-nogpulib",
    "-nogpuinc",
    "--cuda-device-only",
    "-std=c++17",  # nvcc 13's default, so CUDA and HIP see the same language
    "-fno-crash-diagnostics",  # no reproducer files left in /tmp on a compiler crash
)

COMPILE_TIMEOUT_S = 600


# ---------------------------------------------------------------------------------------------
# shared helpers


def require_tool(name: str, install_hint: str) -> str:
    """Return the full path of executable ``name`` or fail (never skip) saying how to install it."""
    path = shutil.which(name)
    if path is None:
        raise AssertionError(
            f"required compiler/tool {name!r} was not found on PATH; install it with: "
            f"{install_hint}"
        )
    return path


def _numbered(source: str) -> str:
    lines = source.splitlines() or [""]
    width = len(str(len(lines)))
    return "\n".join(f"{i:>{width}} | {line}" for i, line in enumerate(lines, 1))


def _failure(backend: str, name: str, source: str, command: str, rc: object, log: str) -> str:
    note = "; #line directives remap the compiler's line numbers" if "#line" in source else ""
    return (
        f"{backend} compile of {name!r} failed\n"
        f"command: {command}\n"
        f"exit code: {rc}\n"
        f"--- compiler output ---\n{log.rstrip()}\n"
        f"--- source {name!r} ({len(source.splitlines())} lines{note}) ---\n"
        f"{_numbered(source)}"
    )


def _stem(name: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._")
    return stem[:80] or "kernel"


def _run(cmd: Sequence[str], cwd: str) -> tuple[int | str, str]:
    """Run a compiler; return (exit code, merged stdout+stderr)."""
    try:
        proc = subprocess.run(
            list(cmd),
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            timeout=COMPILE_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.output or ""
        if isinstance(out, bytes):
            out = out.decode(errors="replace")
        return f"timeout after {COMPILE_TIMEOUT_S} s", out
    return proc.returncode, proc.stdout


def _compile_file(backend: str, name: str, source: str, filename: str, make_cmd) -> None:
    """Write ``source`` to a temp dir as ``filename`` and run ``make_cmd(src_path, tmpdir)``."""
    with tempfile.TemporaryDirectory(prefix=f"okl-{_stem(backend.lower())}-") as tmp:
        src = os.path.join(tmp, filename)
        with open(src, "w", encoding="utf-8") as fh:
            fh.write(source)
        cmd = make_cmd(src, tmp)
        rc, log = _run(cmd, tmp)
        if rc != 0:
            raise AssertionError(_failure(backend, name, source, shlex.join(cmd), rc, log))


# ---------------------------------------------------------------------------------------------
# serial C / OpenMP C


def _c_compiler() -> list[str]:
    cc = shlex.split(os.environ.get("CC", "").strip()) or ["cc"]
    cc[0] = require_tool(cc[0], "apt-get install -y gcc   (or set CC to a C compiler)")
    return cc


def compile_c(source: str, name: str, openmp: bool = False) -> None:
    """Compile generated serial (or, with openmp=True, OpenMP) C99 to an object file."""
    cc = _c_compiler()
    extra = ["-fopenmp"] if openmp else []

    def cmd(src: str, tmp: str) -> list[str]:
        return [*cc, *C_FLAGS, *extra, "-c", "-fPIC", "-o", os.path.join(tmp, "kernel.o"), src]

    _compile_file("OpenMP C" if openmp else "C", name, source, _stem(name) + ".c", cmd)


# ---------------------------------------------------------------------------------------------
# OpenCL C on pocl

_POCL_LOCK = threading.Lock()
_POCL_CONTEXT = None


def pocl_context():
    """The (cached) pyopencl Context on pocl's CPU device, chosen explicitly by platform."""
    global _POCL_CONTEXT
    with _POCL_LOCK:
        if _POCL_CONTEXT is not None:
            return _POCL_CONTEXT
        try:
            import pyopencl as cl
        except ImportError as exc:
            raise AssertionError(
                f"pyopencl is not importable ({exc}); install with: {PIP_INSTALL}"
            ) from exc
        from okl.runtime.drivers import clselect

        try:
            found = clselect.candidates()
        except clselect.SelectionError as exc:  # no ICD at all
            raise AssertionError(f"{exc}; install pocl with: {PIP_INSTALL}") from None
        pocl = [c for c in found if "portable computing language" in c.platform.name.lower()
                or "pocl" in c.platform.vendor.lower()]
        if not pocl:
            names = ", ".join(str(c) for c in found) or "none"
            raise AssertionError(f"no pocl OpenCL device among [{names}]; install with: "
                                 f"{PIP_INSTALL}")
        # the first pocl that can build (okl's own probe): the wheel's PoCL fails on CPUs
        # newer than its LLVM, Debian's then does the work
        working = next((c for c in pocl if not clselect.probe(c)), None)
        if working is None:
            reasons = "; ".join(f"{c}: {clselect.probe(c)}" for c in pocl)
            raise AssertionError(f"no pocl device can build a kernel: {reasons}")
        devices = [working.device]
        _POCL_CONTEXT = cl.Context(devices[:1])
        return _POCL_CONTEXT


def compile_opencl(source: str, name: str) -> None:
    """Build generated OpenCL C with -cl-std=CL1.2 on pocl (front end + link with its library)."""
    ctx = pocl_context()  # fails with the install command if pyopencl/pocl are missing
    import pyopencl as cl

    device = ctx.devices[0]
    with warnings.catch_warnings():
        # pyopencl warns (CompilerWarning) whenever a successful build has a non-empty log.
        warnings.simplefilter("ignore", cl.CompilerWarning)
        program = cl.Program(ctx, source)
        try:
            # cache_dir=False: really build every time (pyopencl's binary cache would also make
            # pocl generate machine code for the cache, which is slower than the plain build).
            program.build(options=list(OPENCL_OPTIONS), cache_dir=False)
        except cl.Error as exc:
            log = str(exc)
            try:
                build_log = program.get_build_info(device, cl.program_build_info.LOG) or ""
            except cl.Error:
                build_log = ""
            if build_log.strip() and build_log.strip() not in log:
                log += f"\n--- build log ---\n{build_log}"
            command = (
                f"pyopencl Program.build(options={list(OPENCL_OPTIONS)}) on "
                f"{device.name!r} ({device.platform.version})"
            )
            raise AssertionError(
                _failure("OpenCL", name, source, command, getattr(exc, "code", "?"), log)
            ) from None


# ---------------------------------------------------------------------------------------------
# CUDA (nvcc, compile only)


def _nvcc() -> str:
    nvcc = os.environ.get("NVCC", "").strip()
    if not nvcc:
        nvcc = "nvcc"
        if shutil.which(nvcc) is None and os.access("/usr/local/cuda/bin/nvcc", os.X_OK):
            nvcc = "/usr/local/cuda/bin/nvcc"
    path = require_tool(nvcc, NVCC_INSTALL)
    require_tool("g++", "apt-get install -y g++   (nvcc uses it as the host compiler)")
    return path


def _nvcc_cmd(nvcc: str, src: str, obj: str) -> list[str]:
    return [nvcc, f"-arch={CUDA_ARCH}", "-c", "-o", obj, src]


def compile_cuda(source: str, name: str) -> None:
    """``nvcc -arch=sm_90 -c`` one generated CUDA source (compile only, no GPU needed)."""
    nvcc = _nvcc()
    _compile_file(
        "CUDA",
        name,
        source,
        _stem(name) + ".cu",
        lambda src, tmp: _nvcc_cmd(nvcc, src, os.path.join(tmp, "kernel.o")),
    )


_COMMENT_RE = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_INCLUDE_RE = re.compile(r"^[ \t]*#[ \t]*include\b.*$", re.M)
_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.M)
_CALLABLE_RE = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def _c_linkage_names(source: str) -> set[str]:
    """Names that may collide across namespaces: functions on extern "C" / __global__ lines.

    Only a packing heuristic: a miss just makes a batch fail and fall back to per-source builds.
    """
    names: set[str] = set()
    for line in _COMMENT_RE.sub(" ", source).splitlines():
        if 'extern "C"' in line or "__global__" in line:
            names.update(n for n in _CALLABLE_RE.findall(line) if not n.startswith("__"))
    return names


def _cuda_batch_source(units: Sequence[tuple[str, str]], includes: Sequence[str]) -> str:
    """One translation unit: shared #includes first, then every source in its own namespace.

    Namespaces keep one source from seeing another's helpers, constants and types (so a source
    missing a definition still fails); macros a source defines are #undef'd after it; #includes
    are hoisted only when every source of the batch has exactly the same ones.
    """
    parts = ["/* okl compile_cuda_many batch */", *includes]
    for index, (name, source) in enumerate(units):
        body = _INCLUDE_RE.sub("", source) if includes else source
        parts.append(f"namespace okl_batch_unit_{index} {{")
        parts.append(f'#line 1 "{_stem(name)}.cu"')
        parts.append(body)
        parts.append(f"}} /* namespace okl_batch_unit_{index} */")
        parts.extend(f"#undef {macro}" for macro in sorted(set(_DEFINE_RE.findall(source))))
    return "\n".join(parts) + "\n"


def _plan_cuda_batches(
    units: Sequence[tuple[str, str]], batch_size: int
) -> list[tuple[list[tuple[str, str]], list[str]]]:
    """Group units by their exact set of #includes, then pack each group first-fit into
    batches of at most ``batch_size`` whose extern "C" names do not clash."""
    groups: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    hoisted: dict[tuple[str, ...], list[str]] = {}
    for unit in units:
        includes = [line.strip() for line in _INCLUDE_RE.findall(_COMMENT_RE.sub("", unit[1]))]
        key = tuple(sorted(includes))
        groups.setdefault(key, []).append(unit)
        hoisted.setdefault(key, includes)  # the first unit's order
    batches: list[tuple[list[tuple[str, str]], list[str]]] = []
    for key, members in groups.items():
        open_batches: list[tuple[list[tuple[str, str]], set[str]]] = []
        for unit in members:
            names = _c_linkage_names(unit[1])
            for batch, used in open_batches:
                if len(batch) < batch_size and not (names & used):
                    batch.append(unit)
                    used |= names
                    break
            else:
                open_batches.append(([unit], set(names)))
        batches.extend((batch, hoisted[key]) for batch, _ in open_batches)
    return batches


def _jobs(jobs: int | None) -> int:
    if jobs:
        return max(1, jobs)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def cuda_failures(
    items: Iterable[tuple[str, str]], jobs: int | None = None, max_batch: int = 32
) -> dict[str, str]:
    """Compile many (name, source) CUDA units; return {name: failure message} for those failing.

    Units are packed into at most ``max_batch`` per nvcc translation unit and the batches run
    ``jobs`` at a time (default: usable CPUs).  A failing batch is redone unit by unit, so the
    messages are exactly what compile_cuda would raise for each failing unit.
    """
    units = list(items)
    names = [name for name, _ in units]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"duplicate unit names: {duplicates}")
    if not units:
        return {}
    nvcc = _nvcc()
    workers = _jobs(jobs)
    batch_size = max(1, min(max_batch, math.ceil(len(units) / workers)))
    batches = _plan_cuda_batches(units, batch_size)

    def single(unit: tuple[str, str]) -> tuple[str, str | None]:
        try:
            compile_cuda(unit[1], unit[0])
        except AssertionError as exc:
            return unit[0], str(exc)
        return unit[0], None

    def batch(plan: tuple[list[tuple[str, str]], list[str]]) -> list[tuple[str, str]]:
        """Compile one packed batch; return the units still to check one by one."""
        members, includes = plan
        if len(members) == 1:
            return members
        with tempfile.TemporaryDirectory(prefix="okl-cuda-batch-") as tmp:
            src = os.path.join(tmp, "batch.cu")
            with open(src, "w", encoding="utf-8") as fh:
                fh.write(_cuda_batch_source(members, includes))
            rc, _ = _run(_nvcc_cmd(nvcc, src, os.path.join(tmp, "batch.o")), tmp)
        return [] if rc == 0 else members

    with ThreadPoolExecutor(max_workers=workers) as pool:
        retry = [unit for left in pool.map(batch, batches) for unit in left]
        results = list(pool.map(single, retry))
    return {name: message for name, message in results if message is not None}


def compile_cuda_many(
    items: Iterable[tuple[str, str]], jobs: int | None = None, max_batch: int = 32
) -> None:
    """Batched compile_cuda: raise one AssertionError listing every failing unit's message."""
    failures = cuda_failures(items, jobs=jobs, max_batch=max_batch)
    if failures:
        header = f"{len(failures)} CUDA unit(s) failed to compile: {sorted(failures)}"
        raise AssertionError("\n\n".join([header, *(failures[n] for n in sorted(failures))]))


# ---------------------------------------------------------------------------------------------
# HIP (clang-14 device-only compile to gfx90a assembly against the test-only shim)


def _hip_clang() -> str:
    clang = os.environ.get("OKL_HIP_CLANG", "").strip() or "clang-14"
    return require_tool(clang, APT_INSTALL)


def compile_hip(source: str, name: str) -> None:
    """Compile generated HIP for gfx90a with clang (device side only, to assembly)."""
    clang = _hip_clang()

    def cmd(src: str, tmp: str) -> list[str]:
        return [
            clang,
            *HIP_FLAGS,
            "-I",
            str(HIP_SHIM_DIR),
            "-include",
            str(HIP_SHIM_HEADER),
            "-S",
            "-o",
            os.path.join(tmp, "kernel.s"),
            src,
        ]

    _compile_file("HIP", name, source, _stem(name) + ".hip", cmd)
