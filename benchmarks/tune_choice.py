"""tune_choice: does okl's autotuner pick the fastest variant?  (issue 31, item 3)

For each problem, ``Device.tune`` chooses (``force=True``: it times now, whatever the cache
holds), then every variant is timed again, carefully: the same launches with the device's
events, in ``ROUNDS`` interleaved rounds of about ``BUDGET_S / ROUNDS`` seconds per variant,
median of all.  Reported per problem: the tuner's choice, the exhaustive best, and the
distance -- how much slower the choice is than the best, both as the exhaustive timing
measures them -- plus the relative spread of the best's launches (a distance inside it is
noise, not a wrong choice).

Problems:

- **ins** (kernels/ins.okl, insStep: one time step): the block shapes p_BX x p_BY that
  bench_ins.py sweeps by hand (15 shapes, given to the tuner as a 5 x 5 space and a
  constraint), FP64 and FP32, n x n = 4096^2 on GPUs, 512^2 on CPUs;
- **bk5** (kernels/bk5_blocked.okl: BK5 with p_NblockV elements per @outer iteration):
  p_NblockV = 1, 2, 4, 8, 16 for N = 3, 5, 7, 9, ~4M DOFs on GPUs, 0.5M on CPUs (16 x 10^2
  threads is more than a CUDA block holds: that variant fails to build and is skipped).

    python -m benchmarks.tune_choice --mode openmp [--quick] [--only ins|bk5] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
KERNELS = HERE / "kernels"
#: careful timing: seconds per variant, in this many interleaved rounds
BUDGET_S, ROUNDS = 2.0, 5


@dataclass
class Problem:
    name: str
    file: str
    kernel: str
    defines: dict
    space: dict
    args: list
    constraint: object = None
    rtol: float = 1e-5


@dataclass
class Outcome:
    problem: Problem
    tuning: object  # okl.runtime.tune.TuneResult
    tune_seconds: float  # wall time of dev.tune (builds included)
    #: point text -> (median s, relative IQR, fastest launch s) of the careful timing
    careful: dict = field(default_factory=dict)

    def choice(self) -> str:
        return _key(self.tuning.best)

    def best(self, stat: int = 0) -> str:
        """The exhaustive best by median (stat 0) or by fastest launch (stat 2)."""
        return min(self.careful, key=lambda k: self.careful[k][stat])

    def distance(self, stat: int = 0) -> float:
        """% slower than the exhaustive best, as the careful timing measures both (by
        median, or with stat 2 by fastest launch: on a loaded machine the fastest launch is
        the closest to the kernel's own time)."""
        return (self.careful[self.choice()][stat] / self.careful[self.best(stat)][stat] - 1) \
            * 100


def _load() -> str:
    try:
        return ", ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _key(point: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in point.items())


# -- problems ----------------------------------------------------------------------------------

def ins_problems(gpu: bool, quick: bool) -> list[Problem]:
    from .bench_ins import GPU_SHAPES, params
    from .common import random_array

    n = 64 if quick else (4096 if gpu else 512)
    shapes = set(GPU_SHAPES)
    out = []
    for prec, dtype, fp in (("fp64", np.float64, "double"), ("fp32", np.float32, "float")):
        s = params(n)
        t = np.dtype(dtype).type
        scalars = [np.int32(n), np.int32(n)] + [t(s[k]) for k in
                                                ("dt", "nu", "dtb2", "inv2h", "invh2", "lid")]
        arrays = [random_array(n * n, dtype, seed, -0.1, 0.1) for seed in (21, 22, 23)]
        outs = [np.zeros(n * n, dtype) for _ in range(3)]
        out.append(Problem(
            f"ins {n}^2 {prec}", "ins.okl", "insStep",
            {"dfloat": fp, "p_Idx": "int" if gpu else "long"},
            {"p_BX": [16, 32, 64, 128, 256], "p_BY": [1, 2, 4, 8, 16]},
            scalars + arrays + outs,
            constraint=lambda p, shapes=shapes: (p["p_BX"], p["p_BY"]) in shapes,
            rtol=1e-10 if prec == "fp64" else 1e-5))
    return out


def bk5_problems(gpu: bool, quick: bool) -> list[Problem]:
    from .common import random_array

    out = []
    for N in ((3, 7) if quick else (3, 5, 7, 9)):
        nq = N + 1
        E = 3 if quick else max(1, round((4_000_000 if gpu else 500_000) / nq**3))
        np_ = nq**3
        args = [np.int32(E), 1.0, random_array(E * 7 * np_, np.float64, 11),
                random_array(nq * nq, np.float64, 12, -1, 1),
                random_array(E * np_, np.float64, 13, -1, 1), np.zeros(E * np_)]
        out.append(Problem(f"bk5 N={N} E={E}", "bk5_blocked.okl", "bk5",
                           {"dfloat": "double", "p_Nq": nq},
                           {"p_NblockV": [1, 2, 4, 8, 16]}, args, rtol=1e-12))
    return out


# -- measuring ---------------------------------------------------------------------------------

def run(dev, problem: Problem) -> Outcome:
    start = time.perf_counter()
    k = dev.tune(KERNELS / problem.file, problem.kernel, problem.space, problem.args,
                 defines=problem.defines, constraint=problem.constraint, rtol=problem.rtol,
                 force=True)
    outcome = Outcome(problem, k.tuning, time.perf_counter() - start)
    timed = [v.point for v in k.tuning.table if v.ok]
    outcome.careful = careful(dev, problem, timed)
    return outcome


def careful(dev, problem: Problem, points: list[dict]) -> dict:
    """Every variant the tuner timed, timed again for longer: (median s, relative IQR,
    fastest launch s)."""
    args = [dev.asarray(a.copy()) if isinstance(a, np.ndarray) and a.ndim else a
            for a in problem.args]
    kernels = {_key(p): dev.build_kernel(KERNELS / problem.file, problem.kernel,
                                         defines={**problem.defines, **p}) for p in points}
    stream = dev.current_stream
    reps = {}
    for key, k in kernels.items():  # warm-up, and how many launches fill a round
        marks = []
        for _ in range(3):
            e0 = stream.record()
            k(*args)
            marks.append((e0, stream.record()))
        one = max(statistics.median(dev.elapsed(a, b) for a, b in marks), 1e-9)
        reps[key] = int(min(max(BUDGET_S / ROUNDS / one, 3), 2000))
    times: dict[str, list[float]] = {key: [] for key in kernels}
    for _ in range(ROUNDS):
        for key, k in kernels.items():
            marks = []
            for _ in range(reps[key]):
                e0 = stream.record()
                k(*args)
                marks.append((e0, stream.record()))
            times[key] += [dev.elapsed(a, b) for a, b in marks]
    out = {}
    for key, ts in times.items():
        q1, med, q3 = np.percentile(ts, [25, 50, 75])
        out[key] = (float(med), float((q3 - q1) / med), float(min(ts)))
    return out


# -- report ------------------------------------------------------------------------------------

def report(o: Outcome, echo) -> None:
    t = o.tuning
    echo(f"\n{o.problem.name} ({t.mode}, {t.device}): {len(t.table)} variants, "
         f"tuned in {o.tune_seconds:.1f} s")
    echo(f"   {'variant':23} {'tuner median':>13} {'careful median':>15} {'IQR':>6} "
         f"{'fastest':>12}  status")
    for v in t.table:
        key = _key(v.point)
        tm = f"{v.seconds * 1e6:10.1f} us" if v.seconds is not None else f"{'-':>13}"
        if key in o.careful:
            med, iqr, fastest = o.careful[key]
            cm, spread = f"{med * 1e6:12.1f} us", f"{iqr * 100:5.1f}%"
            low = f"{fastest * 1e6:9.1f} us"
        else:
            cm, spread, low = f"{'-':>15}", f"{'-':>6}", f"{'-':>12}"
        mark = ("T" if key == o.choice() else " ") + ("B" if key == o.best() else " ")
        status = v.status + (f" ({v.reason[:70]})" if v.reason else "")
        echo(f"{mark} {key:23} {tm:>13} {cm:>15} {spread:>6} {low:>12}  {status}")
    best_iqr = o.careful[o.best()][1] * 100
    echo(f"  tuner's choice (T): {o.choice()}; exhaustive best (B): {o.best()}; "
         f"distance {o.distance():.1f} % (the best's launches spread {best_iqr:.1f} % IQR); "
         f"by fastest launch: best {o.best(2)}, distance {o.distance(2):.1f} %")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.tune_choice",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", default="openmp", help="okl mode (default openmp)")
    ap.add_argument("--only", choices=("ins", "bk5"), action="append",
                    help="one problem family (repeatable; default both)")
    ap.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test")
    ap.add_argument("--json", metavar="FILE", help="also write every number as JSON")
    a = ap.parse_args(argv)
    # as `python -m benchmarks run` (benchmarks/__main__.py): pinned threads, passive waits
    os.environ.setdefault("OMP_PROC_BIND", "true")
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    import okl

    dev = okl.Device(a.mode)
    gpu = a.mode in ("cuda", "hip") or (a.mode == "opencl" and
                                        dev.properties.get("type") == "GPU")
    families = a.only or ["ins", "bk5"]
    problems = (ins_problems(gpu, a.quick) if "ins" in families else []) + \
        (bk5_problems(gpu, a.quick) if "bk5" in families else [])

    def echo(line: str) -> None:
        print(line, flush=True)

    echo(f"tune_choice: okl {okl.__version__}, mode {dev.mode}, device {dev.name}, "
         f"{os.cpu_count()} CPUs, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}, "
         f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    echo(f"load average at start (1, 5, 15 min): {_load()} on {os.cpu_count()} CPUs (other "
         "processes share them: a load above the CPU count means launches wait for a core)")
    echo(f"careful timing: {ROUNDS} interleaved rounds, about {BUDGET_S} s of launches per "
         "variant, device events, median; tuner: Device.tune defaults (force=True)")
    outcomes = []
    for p in problems:
        outcomes.append(run(dev, p))
        report(outcomes[-1], echo)
    echo("\nsummary (distance: how much slower the tuner's choice is than the exhaustive "
         "best, both timed carefully; by median, and by fastest launch):")
    for o in outcomes:
        echo(f"  {o.problem.name:24} choice {o.choice():22} best {o.best():22} "
             f"{o.distance():5.1f} %   (fastest launch: best {o.best(2)}, "
             f"{o.distance(2):.1f} %)")
    for stat, what in ((0, "median"), (2, "fastest launch")):
        within = sum(o.distance(stat) <= 2.0 for o in outcomes)
        echo(f"  by {what}: within 2 % in {within} of {len(outcomes)}; largest distance "
             f"{max(o.distance(stat) for o in outcomes):.1f} %")
    echo(f"load average at the end: {_load()}")
    if a.json:
        Path(a.json).write_text(json.dumps([{
            "problem": o.problem.name, "tuning": o.tuning.to_json(),
            "tune_seconds": o.tune_seconds, "careful": o.careful, "choice": o.choice(),
            "best": o.best(), "distance_percent": o.distance(),
            "best_by_fastest": o.best(2), "distance_by_fastest_percent": o.distance(2)}
            for o in outcomes], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
