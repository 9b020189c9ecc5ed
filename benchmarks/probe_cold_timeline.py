"""Where a cold cuda build's time goes, as a timeline: ``python -m benchmarks.probe_cold_timeline``.

For addVectors, fd2d and bk5 (benchmarks.bench_build's cases), eight unique cold builds each
(a new Device on an empty cache, a unique ``-D`` flag and constant; the first is left out):
each step okl's build takes -- the translation cache lookups, the translation, the start of
the compile thread (Driver.begin_build), the kernel specs, the cache writes, NVRTC, waiting
for its result, loading the cubin, the launch set-up (and in it the argument converters,
the launch function, its probe launch and its generated code) -- is timed where it starts
(+) and ends (-), on the thread that runs it.  Printed: the median time of each event from
the build's start, in order.  What lies outside NVRTC (before ``nvrtc+`` and after
``nvrtc-``) is what okl adds to a cold build; what runs on the main thread between them is
hidden by NVRTC.
"""

from __future__ import annotations

import collections
import statistics
import tempfile
import threading
import time
import uuid

from .bench_build import CASES
from .common import KERNELS


def main() -> None:
    import okl
    import okl.translation as translation
    from okl.runtime import device as device_module
    from okl.runtime import kernel as kernel_module
    from okl.runtime import program as program_module
    from okl.runtime.cache import Cache
    from okl.runtime.drivers import cuda, started

    events: list[tuple[str, str, float]] = []

    def timed(owner, attr: str, label: str) -> None:
        f = getattr(owner, attr)

        def wrapper(*args, **kwargs):
            events.append((label + "+", threading.current_thread().name, time.perf_counter()))
            try:
                return f(*args, **kwargs)
            finally:
                events.append((label + "-", threading.current_thread().name,
                               time.perf_counter()))
        setattr(owner, attr, wrapper)

    for owner, attr, label in (
            (translation, "translate", "translate"), (device_module, "specs_of", "specs"),
            (Cache, "put", "put"), (Cache, "get", "get"), (cuda, "_nvrtc_cubin", "nvrtc"),
            (cuda.CudaBackend, "_load_cubin", "load"),
            (cuda.CudaBackend, "begin_build", "begin"), (started.Started, "result", "result"),
            (started.Started, "close", "close"),
            (program_module.Program, "__getitem__", "setup"),
            # inside the set-up: the argument converters, the launch function (its
            # direct-launch probe, its generated code)
            (kernel_module, "make_converters", "converters"),
            (cuda.CudaBackend, "caller", "caller"), (cuda.CudaBackend, "_direct", "direct"),
            (cuda, "compile_caller", "compile")):
        timed(owner, attr, label)
    for file, name, defines, *_ in [CASES[0], CASES[3], CASES[4]]:
        src = (KERNELS / file).read_text()
        when: dict[tuple[str, str], list[float]] = collections.defaultdict(list)
        for i in range(8):
            with tempfile.TemporaryDirectory() as cache:
                dev = okl.Device("cuda", cache_dir=cache)
                nonce = uuid.uuid4().hex[:12]
                events.clear()
                t0 = time.perf_counter()
                dev.build_kernel_from_string(f"{src}\nconst int okl_probe_{nonce} = 1;\n", name,
                                             defines=defines, flags=[f"-DOKL_PROBE_{nonce}=1"],
                                             filename=str(KERNELS / file))
                end = time.perf_counter()
            if i == 0:  # the first build of the process: imports, NVRTC's own start
                continue
            seen: collections.Counter = collections.Counter()
            for event, thread, t in events:
                seen[event] += 1
                label = event + (str(seen[event]) if seen[event] > 1 else "")
                when[(label, thread[:10])].append((t - t0) * 1e3)
            when[("end", "")].append((end - t0) * 1e3)
        print(f"==== {name}: median ms from the build's start")
        for (event, thread), ts in sorted(when.items(), key=lambda kv: statistics.median(kv[1])):
            print(f"  {statistics.median(ts):8.2f}  {event:12} {thread}", flush=True)


if __name__ == "__main__":
    main()
