"""Build latency per kernel and okl mode.

- translate: ``okl.translation.translate(source, mode, defines=...)`` (min / median of 5 after
  one warm-up call);
- cold build: a new Device on an empty OKL_CACHE_DIR building the kernel with a unique
  ``-D`` flag and a unique unused constant appended to the source, so that no cache at any
  level can answer (okl's, CuPy's, PoCL's, the NVIDIA driver's -- and NVRTC's own since CUDA
  12.9, which a flag the code never reads does not defeat): translate + compile + load, as
  ``Kernel.build_seconds`` reports it;
- warm load: a new Device on the same cache directory, same flags (min / median of 5);
- on cuda and hip (NVIDIA): NVRTC alone on the source okl made (its own unique device global
  appended, okl's options and GPU architecture), right after each cold build; the cold
  build (median of 3, each unique) over NVRTC alone (median of the same 3) is what okl
  costs beyond NVRTC, translation and module load included (issue 14: at most 1.10).
  NVRTC is timed a second time without okl's ``-minimal`` (okl.runtime.drivers.cuda.MINIMAL):
  what the same source costs compiled as CuPy's RawModule compiles it by default.
For comparison the hand-written peers' compile time (cc with okl's flags; NVRTC through
CuPy with a fresh option; the OpenCL peer built from source in okl's opencl context with okl's
options and a fresh -D flag) is recorded too.
"""

from __future__ import annotations

import functools
import shutil
import statistics
import subprocess
import tempfile
import time
import uuid

from .common import CL_FLAGS, CPU_FLAGS, KERNELS, NVRTC_FLAGS, PEERS, Context, c_compiler, log

# (okl file, kernel, defines, peer file stem, peer defines)
CASES = [
    ("addvectors.okl", "addVectors", {"p_B": 256}, "addvectors", {}),
    ("stream.okl", "streamTriad", {"dfloat": "double", "p_B": 256, "p_DOTB": 256}, "stream",
     {"dfloat": "double"}),
    ("reduction.okl", "reduceShared", {"p_B": 256, "p_U": 32}, "reduction",
     {"p_B": 256, "p_U": 32}),
    ("fd2d.okl", "fd2d", {"p_W": 8192, "p_H": 8192, "p_BX": 16, "p_BY": 16, "p_SR": 7,
                          "p_C2": "0.25f", "p_DT2": "0.01f", "p_SX": 4099, "p_SY": 4091,
                          "p_FREQ": "10.0f"}, "fd2d", None),
    ("bk5.okl", "bk5", {"dfloat": "double", "p_Nq": 8}, "bk5", {"dfloat": "double", "p_Nq": 8}),
    ("edges.okl", "resCalc", {"dfloat": "double", "p_B": 256, "p_GAMMA": 1.4}, "edges",
     {"p_GAMMA": 1.4}),
]


def run(ctx: Context) -> None:
    import okl
    from okl.translation import translate

    cases = CASES[:1] if ctx.quick else CASES
    for file, name, defines, peer, peer_defines in cases:
        if peer_defines is None:
            peer_defines = defines
        src = (KERNELS / file).read_text()
        for impl in ctx.okl_impls():
            mode = impl.mode
            row = {"kernel": name, "file": file, "mode": mode, "device_name": impl.device_name}
            try:
                translate(src, mode, defines=defines, filename=str(KERNELS / file))
                tt = []
                for _ in range(2 if ctx.quick else 5):
                    t0 = time.perf_counter()
                    translate(src, mode, defines=defines, filename=str(KERNELS / file))
                    tt.append(time.perf_counter() - t0)
                row["translate_s_min"], row["translate_s_median"] = min(tt), statistics.median(tt)
                alone = _nvrtc_alone(ctx, impl)
                colds, walls, alones, fulls, caches = [], [], [], [], []
                try:
                    for _ in range(3 if alone and not ctx.quick else 1):
                        caches.append(tempfile.mkdtemp(prefix="okl-bench-cache-"))
                        props = dict(impl.okl_device.props, cache_dir=caches[-1])
                        nonce = uuid.uuid4().hex[:12]
                        flags = [f"-DOKL_BENCH_NONCE_{nonce}=1"]
                        unique = f"{src}\nconst int okl_bench_nonce_{nonce} = 1;\n"
                        where = str(KERNELS / file)
                        dev = okl.Device(mode, **props)
                        t0 = time.perf_counter()
                        k = dev.build_kernel_from_string(unique, name, defines=defines,
                                                         flags=flags, filename=where)
                        walls.append(time.perf_counter() - t0)
                        colds.append(k.build_seconds)
                        row["cold_cache_hit"] = k.cache_hit
                        if alone:
                            alones.append(alone(k.source, flags))
                            fulls.append(alone(k.source, flags, minimal=False))
                    row["cold_wall_s"] = statistics.median(walls)
                    row["cold_s"] = statistics.median(colds)
                    if alones:
                        row["nvrtc_same_source_s"] = statistics.median(alones)
                        row["cold_over_nvrtc"] = row["cold_s"] / row["nvrtc_same_source_s"]
                        row["nvrtc_without_minimal_s"] = statistics.median(fulls)
                    warm = []
                    hits = []
                    for _ in range(2 if ctx.quick else 5):  # the last cold build's cache
                        dev = okl.Device(mode, **props)
                        k = dev.build_kernel_from_string(unique, name, defines=defines,
                                                         flags=flags, filename=where)
                        warm.append(k.build_seconds)
                        hits.append(k.cache_hit)
                    row["warm_s_min"], row["warm_s_median"] = min(warm), statistics.median(warm)
                    row["warm_cache_hit"] = all(hits)
                finally:
                    for cache in caches:
                        shutil.rmtree(cache, ignore_errors=True)
                row["peer_compile_s"], row["peer"] = _peer_compile(ctx, impl, peer, peer_defines)
                row["check"] = "PASS"
            except Exception as e:
                row["check"] = "ERROR"
                row["check_detail"] = f"{type(e).__name__}: {e}"
            ctx.builds.append(row)
            if row["check"] == "PASS":
                peer_ms = (row["peer_compile_s"] or 0) * 1e3
                alone_ms = (f"  NVRTC alone {row['nvrtc_same_source_s'] * 1e3:.1f} ms "
                            f"(cold / alone {row['cold_over_nvrtc']:.2f}; without -minimal "
                            f"{row['nvrtc_without_minimal_s'] * 1e3:.1f} ms)"
                            if "nvrtc_same_source_s" in row else "")
                log(f"[bench] build     {name:12} {mode:8} translate "
                    f"{row['translate_s_min'] * 1e3:7.1f} ms  cold {row['cold_s'] * 1e3:7.1f} ms  "
                    f"warm {row['warm_s_min'] * 1e3:7.3f} ms  (peer compile {peer_ms:.0f} ms)"
                    f"{alone_ms}")
            else:
                log(f"[bench] build {name} {mode}: {row['check_detail']}")


def _nvrtc_alone(ctx: Context, impl):
    """``time(source, flags)`` (:func:`nvrtc_alone` on this GPU), or None off NVIDIA GPUs."""
    backend = impl.okl_device.backend
    if impl.mode not in ("cuda", "hip") or ctx.cp is None or getattr(backend, "rocm", True):
        return None
    return functools.partial(nvrtc_alone, ctx.cp.cuda.nvrtc, backend)


def nvrtc_alone(nvrtc, backend, source: str, flags: list[str], *, minimal: bool = True) -> float:
    """Seconds NVRTC alone (CuPy's binding ``nvrtc``) takes to make the cubin of okl's
    ``source`` as ``backend`` (an okl cuda/hip backend) builds it: the same options and
    architecture, a unique device global appended so that NVRTC's own cache cannot answer.
    ``minimal=False``: without okl's ``-minimal``."""
    from okl.runtime.drivers.cuda import without_minimal

    code = f"{source}\n__device__ int okl_bench_alone_{uuid.uuid4().hex[:12]};\n"
    options = [*backend.compile_options(flags), f"--gpu-architecture={backend.arch}"]
    if not minimal:
        options = without_minimal(options)
    t0 = time.perf_counter()
    program = nvrtc.createProgram(code, "okl.cu", (), ())
    try:
        nvrtc.compileProgram(program, options)
        nvrtc.getCUBIN(program)
    finally:
        nvrtc.destroyProgram(program)
    return time.perf_counter() - t0


def _peer_compile(ctx: Context, impl, peer: str, defines: dict):
    """Seconds to compile the hand-written peer the way okl compiles this mode's output."""
    nonce = f"-DPEER_NONCE_{uuid.uuid4().hex[:12]}=1"
    if impl.device == "cpu" and impl.mode in ("openmp", "serial"):
        out = tempfile.mktemp(suffix=".so")
        flags = [f for f in CPU_FLAGS if impl.mode == "openmp" or f != "-fopenmp"]
        cmd = [c_compiler(), *flags, *[f"-D{k}={v}" for k, v in defines.items()], nonce,
               str(PEERS / "openmp" / f"{peer}.c"), "-o", out, "-lm"]
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        dt = time.perf_counter() - t0
        shutil.os.remove(out)
        return dt, "cc " + peer + ".c"
    if impl.mode in ("cuda", "hip") and ctx.cp is not None:
        cp = ctx.cp
        code = (PEERS / "cuda" / f"{peer}.cu").read_text() + \
            f"\n__device__ int peer_nonce_{uuid.uuid4().hex[:12]};\n"  # as okl's cold build
        options = (*NVRTC_FLAGS, *[f"-D{k}={v}" for k, v in defines.items()], nonce)
        t0 = time.perf_counter()
        mod = cp.RawModule(code=code, options=options)
        mod.compile()
        return time.perf_counter() - t0, "NVRTC " + peer + ".cu"
    if impl.mode == "opencl":
        import pyopencl as cl
        backend = impl.okl_device.backend
        src = (PEERS / "opencl" / f"{peer}.cl").read_text()
        options = [*CL_FLAGS, *backend.flags, *[f"-D{k}={v}" for k, v in defines.items()],
                   nonce]
        t0 = time.perf_counter()
        cl.Program(backend.context, src).build(options=options)
        return time.perf_counter() - t0, "clBuildProgram " + peer + ".cl"
    return None, None
