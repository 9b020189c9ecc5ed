"""What a cold cuda/hip build costs beyond NVRTC: ``python -m benchmarks.probe_cold_build``.

For every kernel of benchmarks.bench_build and each of cuda and hip (NVIDIA GPUs), ``--runs``
(3) unique cold builds (a new Device on an empty cache, a unique ``-D`` flag and constant); per
build it records ``Kernel.build_seconds``, the time okl's build spent inside NVRTC (okl's
NVRTC call timed where it is made) and NVRTC alone on the same source, once before and once
after okl's build (okl's options and GPU architecture, a unique device global appended so
that NVRTC's own cache cannot answer).  Printed: medians per kernel and mode, and okl's own
``OKL_VERBOSE`` lines (translate, compile and load, launch set-up).  ``beyond`` is the median
over the builds of build_seconds less that build's own NVRTC call: what okl adds to NVRTC,
paired build by build, so that NVRTC's own run-to-run spread (tens of ms on a busy host)
does not hide it.  ``over-full`` is the median of build_seconds less NVRTC alone on the same
source without okl's ``-minimal`` (timed after the build): what a cold build costs beyond
compiling okl's output the way CuPy's RawModule does by default.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import uuid

from .bench_build import CASES, nvrtc_alone
from .common import KERNELS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    os.environ["OKL_VERBOSE"] = "1"
    import cupy as cp

    import okl
    from okl.runtime.drivers import cuda as okl_cuda
    from okl.translation import translate

    inside: list[float] = []
    nvrtc_cubin = okl_cuda._nvrtc_cubin

    def timed(nvrtc, source, options):
        start = time.perf_counter()
        try:
            return nvrtc_cubin(nvrtc, source, options)
        finally:
            inside.append(time.perf_counter() - start)

    okl_cuda._nvrtc_cubin = timed
    nvrtc = cp.cuda.nvrtc

    for file, name, defines, *_ in CASES:
        src = (KERNELS / file).read_text()
        where = str(KERNELS / file)
        for mode in ("cuda", "hip"):
            rows = []
            for _ in range(runs):
                with tempfile.TemporaryDirectory() as cache:
                    dev = okl.Device(mode, cache_dir=cache)
                    nonce = uuid.uuid4().hex[:12]
                    flags = [f"-DOKL_PROBE_{nonce}=1"]
                    unique = f"{src}\nconst int okl_probe_{nonce} = 1;\n"
                    ours = translate(unique, mode, defines=defines, filename=where).source
                    before = nvrtc_alone(nvrtc, dev.backend, ours, flags)
                    inside.clear()
                    k = dev.build_kernel_from_string(unique, name, defines=defines,
                                                     flags=flags, filename=where)
                    after = nvrtc_alone(nvrtc, dev.backend, k.source, flags)
                    full = nvrtc_alone(nvrtc, dev.backend, k.source, flags, minimal=False)
                    rows.append((k.build_seconds, inside[0] if inside else float("nan"),
                                 before, after, full))
            cold, within, before, after, full = (statistics.median(r[i] for r in rows) * 1e3
                                                 for i in range(5))
            beyond = statistics.median(r[0] - r[1] for r in rows) * 1e3
            over_full = statistics.median(r[0] - r[4] for r in rows) * 1e3
            print(f"PROBE {name:12} {mode:5} cold {cold:7.1f}  nvrtc-in-okl {within:7.1f}  "
                  f"alone-before {before:7.1f}  alone-after {after:7.1f}  "
                  f"beyond {beyond:6.2f}  alone-without-minimal {full:7.1f}  "
                  f"over-full {over_full:6.2f}", flush=True)


if __name__ == "__main__":
    main()
