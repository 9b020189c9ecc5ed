"""Where a cold CUDA/HIP build's time goes, and NVRTC's own compilation cache (issue 14).

``python -m benchmarks.probe_nvrtc_cache`` (GPU machine): builds addVectors and bk5 in the
order cuda, hip, cuda, hip, each on an empty okl cache with a fresh ``-D`` flag, timing
NVRTC and the module load inside okl's build; then NVRTC alone on bk5's translation, first
with a fresh unused ``-D`` flag each time, then with a unique unused device global in the
code; then CuPy's RawModule on the hand peer.  What it showed (CUDA 13.0; this script on an
H200, ``results/h200-2026-11-24-s4-nvrtc-cache-probe.txt``, the same steps in an earlier
form of it on an H100, ``results/h100-2026-11-24-s4-nvrtc-cache-probe.txt``): NVRTC answers a
compilation it has seen from its own cache (20-24 ms instead of 230-390 ms for bk5) when only
a flag the code never reads differs, so the hip rows of the build benchmark, which followed
the cuda rows with the same code, were cache hits; unique code makes every compilation cold
again.
"""

from __future__ import annotations

import tempfile
import time
import uuid

from .common import KERNELS, PEERS

CASES = [("addvectors.okl", "addVectors", {"p_B": 256}),
         ("bk5.okl", "bk5", {"dfloat": "double", "p_Nq": 8})]
BK5_DEFINES = {"dfloat": "double", "p_Nq": 8}


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1e3


def main() -> None:
    import cupy as cp

    import okl
    from okl.runtime.drivers import cuda as okl_cuda
    from okl.translation import translate

    timings: dict[str, float] = {}
    nvrtc, load = okl_cuda._nvrtc_cubin, okl_cuda.CudaBackend._load_cubin

    def timed_nvrtc(*args, **kwargs):
        t0 = time.perf_counter()
        out = nvrtc(*args, **kwargs)
        timings["nvrtc"] = _ms(t0)
        return out

    def timed_load(self, *args, **kwargs):
        t0 = time.perf_counter()
        out = load(self, *args, **kwargs)
        timings["load"] = _ms(t0)
        return out

    okl_cuda._nvrtc_cubin, okl_cuda.CudaBackend._load_cubin = timed_nvrtc, timed_load
    try:
        for rnd in range(2):
            for file, name, defines in CASES:
                for mode in ("cuda", "hip", "cuda", "hip"):
                    timings.clear()
                    dev = okl.Device(mode, cache_dir=tempfile.mkdtemp(prefix="okl-probe-"))
                    t0 = time.perf_counter()
                    dev.build_kernel(KERNELS / file, name, defines=defines,
                                     flags=[f"-DN{uuid.uuid4().hex[:10]}=1"])
                    print(f"round {rnd} {name:10} {mode:4} build {_ms(t0):7.1f} ms  nvrtc "
                          f"{timings.get('nvrtc', -1):7.1f}  load {timings.get('load', -1):6.1f}")
    finally:
        okl_cuda._nvrtc_cubin, okl_cuda.CudaBackend._load_cubin = nvrtc, load

    arch = okl.Device("cuda").backend.arch  # what okl's own builds target
    src = (KERNELS / "bk5.okl").read_text()
    for unique in (False, True):
        for mode in ("cuda", "hip", "cuda", "hip"):
            code = translate(src, mode, defines=BK5_DEFINES).source
            options = ["-std=c++17", f"--gpu-architecture={arch}"]
            if mode == "hip":
                options.append(f"-I{okl_cuda.HIP_INCLUDE}")
            if unique:
                code += f"\n__device__ int okl_nonce_{uuid.uuid4().hex[:10]};\n"
            else:
                options.append(f"-DN{uuid.uuid4().hex[:10]}=1")
            t0 = time.perf_counter()
            nvrtc(cp.cuda.nvrtc, code, options)
            what = "unique code" if unique else "fresh unused -D flag"
            print(f"{mode} NVRTC alone, bk5, {what}: {_ms(t0):.1f} ms")
    peer = (PEERS / "cuda" / "bk5.cu").read_text()
    for _ in range(2):
        t0 = time.perf_counter()
        module = cp.RawModule(code=peer, options=("-std=c++17", "-Ddfloat=double", "-Dp_Nq=8",
                                                  f"-DP{uuid.uuid4().hex[:8]}=1"))
        module.compile()
        print(f"hand peer through CuPy RawModule, bk5, fresh unused -D flag: {_ms(t0):.1f} ms")
    print("NVRTC version", cp.cuda.nvrtc.getVersion())


if __name__ == "__main__":
    main()
