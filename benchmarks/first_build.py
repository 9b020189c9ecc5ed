"""The first build of a process, okl against NVRTC alone, each in a fresh process.

    python -m benchmarks.first_build [--mode cuda] [--runs 3]

bench_build measures cold builds inside one long process, where the CUDA context, NVRTC's
library and CuPy's compiler module are already loaded when the hand-written peer compiles;
the first kernel of a process pays for all of that too.  Here every sample is a new Python
process with empty caches (okl's, CuPy's) that imports what it needs, then times:

- ``nvrtc``: ``cupy.RawModule(code=<hand-written peer>).get_function(...)`` (compile + load,
  the context made on the way), as a CuPy user's first kernel;
- ``okl``: ``okl.Device(mode).build_kernel(<okl file>)`` (translate + compile + load), with
  ``Kernel.build_seconds`` and okl's own translate time reported beside it.

Imports are timed apart (``import cupy``; ``import okl`` + ``import cupy``).  The median of
``--runs`` processes is printed per kernel, as one JSON line each.

okl's modules are byte-compiled first (``compileall``), as ``pip install`` leaves them: where
``PYTHONDONTWRITEBYTECODE`` is set (the device machines set it) and okl runs from a source
tree, every fresh process would otherwise compile okl's ~200 modules again (0.1-0.3 s that no
installed okl pays).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile

from .common import KERNELS, NVRTC_FLAGS, PEERS

# (okl file, kernel, defines, peer file, peer kernel, peer defines)
CASES = [
    ("addvectors.okl", "addVectors", {"p_B": 256}, "addvectors.cu", "add_vectors", {}),
    ("bk5.okl", "bk5", {"dfloat": "double", "p_Nq": 8}, "bk5.cu", None,
     {"dfloat": "double", "p_Nq": 8}),
]

_NVRTC = """
import json, sys, time
t0 = time.perf_counter()
import cupy
t1 = time.perf_counter()
code, options, name = json.loads(sys.argv[1])
m = cupy.RawModule(code=code, options=tuple(options))
m.compile() if name is None else m.get_function(name)
t2 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "build_s": t2 - t1}))
"""

_OKL = """
import json, sys, time
t0 = time.perf_counter()
import okl, cupy
from okl.translation import translate
t1 = time.perf_counter()
path, name, defines, mode = json.loads(sys.argv[1])
dev = okl.Device(mode)
k = dev.build_kernel(path, name, defines=defines)
t2 = time.perf_counter()
src = open(path).read()
t3 = time.perf_counter()
translate(src, mode, defines=defines, filename=path)
t4 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "build_s": t2 - t1, "kernel_build_s": k.build_seconds,
                  "translate_again_s": t4 - t3}))
"""


def fresh_process(argv: list[str], check: bool = True) -> subprocess.CompletedProcess:
    """``python *argv`` in a new process whose caches (okl's, CuPy's) are empty."""
    with tempfile.TemporaryDirectory() as okl_cache, tempfile.TemporaryDirectory() as cupy_cache:
        env = dict(os.environ, OKL_CACHE_DIR=okl_cache, CUPY_CACHE_DIR=cupy_cache)
        return subprocess.run([sys.executable, *argv], env=env, capture_output=True, text=True,
                              timeout=300, check=check)


def byte_compile_okl() -> None:
    """okl's modules byte-compiled, as ``pip install`` leaves them (see the docstring)."""
    import okl
    compileall.compile_dir(os.path.dirname(okl.__file__), quiet=1)


def _sample(script: str, argument: list) -> dict:
    out = fresh_process(["-c", script, json.dumps(argument)])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--mode", default="cuda")
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args(argv)
    byte_compile_okl()
    for file, name, defines, peer, peer_name, peer_defines in CASES:
        code = (PEERS / "cuda" / peer).read_text()
        options = [*NVRTC_FLAGS, *(f"-D{k}={v}" for k, v in peer_defines.items())]
        rows = {"nvrtc": [], "okl": []}
        for _ in range(args.runs):  # interleaved, so drifts of the machine hit both alike
            rows["nvrtc"].append(_sample(_NVRTC, [code, options, peer_name]))
            rows["okl"].append(_sample(_OKL, [str(KERNELS / file), name, defines, args.mode]))
        result = {"kernel": name, "mode": args.mode, "runs": args.runs}
        for who, samples in rows.items():
            for field in samples[0]:
                result[f"{who}_{field}_ms"] = round(
                    statistics.median(s[field] for s in samples) * 1e3, 1)
        result["okl_over_nvrtc"] = round(result["okl_build_s_ms"] / result["nvrtc_build_s_ms"], 3)
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
