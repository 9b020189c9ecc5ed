"""Where a process's first kernel build goes: ``python -m benchmarks.profile_first_build``.

benchmarks.first_build gives the totals (okl against CuPy's RawModule, fresh processes);
this says where okl's part goes.  One fresh process with empty caches (okl's and CuPy's)
runs, under cProfile: ``import okl, cupy``, ``okl.Device(mode)`` and ``build_kernel`` of
addVectors, each also timed alone; then the same for the peer (``import cupy``,
``RawModule(...).get_function``) in a second fresh process.  Printed: the phases' times and
the top ``--top`` functions by cumulative time of each process (profiling inflates the
absolute numbers; read the shares), and ``python -X importtime``'s slowest imports of
``import okl, cupy``.  okl's modules are byte-compiled first, as in benchmarks.first_build.
"""

from __future__ import annotations

import argparse

from .common import KERNELS, PEERS
from .first_build import byte_compile_okl, fresh_process

_OKL = """
import cProfile, pstats, sys, time
mode, path, top = sys.argv[1], sys.argv[2], int(sys.argv[3])
prof = cProfile.Profile()
t = [time.perf_counter()]
prof.enable()
import okl, cupy
t.append(time.perf_counter())
dev = okl.Device(mode)
t.append(time.perf_counter())
k = dev.build_kernel(path, "addVectors", defines={"p_B": 256})
t.append(time.perf_counter())
prof.disable()
print("okl phases, ms: import %.1f, Device %.1f, build_kernel %.1f (build_seconds %.1f)"
      % ((t[1] - t[0]) * 1e3, (t[2] - t[1]) * 1e3, (t[3] - t[2]) * 1e3, k.build_seconds * 1e3))
pstats.Stats(prof).sort_stats("cumulative").print_stats(top)
"""

_PEER = """
import cProfile, pstats, sys, time
code, top = open(sys.argv[1]).read(), int(sys.argv[2])
prof = cProfile.Profile()
t = [time.perf_counter()]
prof.enable()
import cupy
t.append(time.perf_counter())
f = cupy.RawModule(code=code, options=("-std=c++17",)).get_function("add_vectors")
t.append(time.perf_counter())
prof.disable()
print("peer phases, ms: import %.1f, RawModule + get_function %.1f"
      % ((t[1] - t[0]) * 1e3, (t[2] - t[1]) * 1e3))
pstats.Stats(prof).sort_stats("cumulative").print_stats(top)
"""


def _fresh(argv: list[str]) -> str:
    out = fresh_process(argv, check=False)
    return out.stdout + out.stderr


def main(argv=None) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--mode", default="cuda")
    p.add_argument("--top", type=int, default=40)
    args = p.parse_args(argv)
    byte_compile_okl()
    print(_fresh(["-c", _OKL, args.mode, str(KERNELS / "addvectors.okl"), str(args.top)]))
    print(_fresh(["-c", _PEER, str(PEERS / "cuda" / "addvectors.cu"), str(args.top)]))
    out = _fresh(["-X", "importtime", "-c", "import okl, cupy"])
    rows = [line.split("|") for line in out.splitlines() if line.startswith("import time:")]
    rows = [(int(r[1]), r[2].rstrip()) for r in rows[1:] if r[1].strip().isdigit()]
    print("slowest imports of `import okl, cupy` (cumulative us, module):")
    for us, name in sorted(rows, reverse=True)[:args.top]:
        print(f"{us:>9} {name}")


if __name__ == "__main__":
    main()
