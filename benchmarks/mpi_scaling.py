"""Strong and weak scaling of examples/distributed/poisson.py over MPI ranks (CPU or GPU modes).

    python -m benchmarks.mpi_scaling [--modes openmp,serial] [--ranks 1,2,4] [--repeat 3]
    python -m benchmarks.mpi_scaling --modes cuda --ranks 1,2,4 --iters 300 \
        --strong-n 8192,16384 --weak-n 8192          # one rank per GPU

runs ``mpiexec -n R python examples/distributed/poisson.py --mode M --iters I --check`` for
every mode and rank count, twice over: *strong* scaling keeps the grid (``--strong-n``² points
in all), *weak* scaling keeps the points per rank (``--weak-n``² per rank: the grid side grows
as sqrt(R)).  ``--strong-n`` may list several sides (one strong series each).  ``--exchange``
is the example's okl.mpi.Communicator mode (auto: the fastest that works; each row records
the mode chosen and why).  Each configuration runs ``--repeat`` times, in rounds, and keeps
the fastest run
(the least disturbed by other work on the machine); the first round also checks the answer
against the one-rank solve (later rounds skip the check, which only costs time after the
timed part).

Writes one JSON document (``--out``, default ``benchmarks/results/mpi-cpu-<date>.json``, or
``mpi-gpu-<date>.json`` for cuda/hip) with one row per configuration -- ranks, gpus (0: CPU
modes), mode, scaling, problem size, exchange mode, seconds per iteration and its breakdown
(compute, halo exchange alone, exposed exchange, all-reduces alone: the example's ``timing``
says how each is measured), check result, GB/s per rank, every repeat's time -- plus a PNG
chart per scaling (``--charts``), and prints a markdown table (also ``--report FILE.json`` for a
committed run: table and charts, no runs).

OpenMP ranks get the node's cores divided between them (the example sets OMP_NUM_THREADS);
more ranks than cores oversubscribe them, and MPICH's ranks busy-poll while they wait, so on a
2-core machine 4 ranks show the cost of that, not a speed-up.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
EXAMPLE = ROOT / "examples" / "distributed" / "poisson.py"


def mpiexec() -> str:
    """The mpiexec beside this Python (pip's mpich, the MPI that mpi4py loads), else PATH's."""
    here = Path(sys.executable).with_name("mpiexec")
    if here.exists():
        return str(here)
    import shutil
    found = shutil.which("mpiexec")
    if found is None:
        raise SystemExit("no mpiexec: pip install mpi4py mpich (the test extra has both)")
    return found


def grid_side(scaling: str, ranks: int, strong_n: int, weak_n: int) -> int:
    """Grid points per side: fixed (strong), or weak_n * sqrt(ranks) so that every rank keeps
    about weak_n² points (weak; rounded, so within a fraction of a percent)."""
    return strong_n if scaling == "strong" else round(weak_n * math.sqrt(ranks))


def run_once(mode: str, ranks: int, n: int, iters: int, check: bool, timeout: int,
             exchange: str = "auto", launcher: str | None = None) -> dict:
    """One mpiexec job; its report (rank 0's JSON).  A failed job raises with its output."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        cmd = [launcher or mpiexec(), "-n", str(ranks), sys.executable, str(EXAMPLE),
               "--mode", mode, "--n", str(n), "--iters", str(iters), "--exchange", exchange,
               "--json", str(report)]
        if check:
            cmd.append("--check")
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
        if not report.exists():
            raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode} without a report:\n"
                               f"{proc.stdout}{proc.stderr}")
        out = json.loads(report.read_text())
        out["returncode"] = proc.returncode
        return out


def measure(modes: list[str], ranks_list: list[int], scalings: list[str], repeat: int,
            iters: int, strong_n: list[int], weak_n: int, timeout: int,
            exchange: str = "auto", launcher: str | None = None) -> list[dict]:
    """Every configuration, best of ``repeat`` runs, as result rows.  The runs go in rounds
    (every configuration once per round), so that a burst of other work on the machine
    slows one run of several configurations rather than every run of one.  A job that fails
    is reported and left out (the other configurations still run)."""
    configs = [(scaling, side, mode, ranks) for scaling in scalings
               for side in (strong_n if scaling == "strong" else [weak_n])
               for mode in modes for ranks in ranks_list]
    runs: dict[tuple, list[dict]] = {c: [] for c in configs}
    for i in range(repeat):
        for config in configs:
            scaling, side, mode, ranks = config
            n = grid_side(scaling, ranks, side, side)
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
            try:
                out = run_once(mode, ranks, n, iters, check=not runs[config], timeout=timeout,
                               exchange=exchange, launcher=launcher)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                print(f"round {i + 1}: {scaling} {mode} {ranks} rank(s) n={n} failed: {e}",
                      file=sys.stderr, flush=True)
                continue
            out["load_average"] = load
            runs[config].append(out)
            print(f"round {i + 1}: {scaling:6} {mode:7} {ranks} rank(s) n={n}: "
                  f"{out['seconds_per_iteration'] * 1e3:.3f} ms/iteration, exchange "
                  f"{out['exchange']} ({_ms(out.get('exchange_seconds_per_iteration'))} "
                  f"alone, {_ms(out.get('exposed_exchange_seconds_per_iteration'))} exposed), "
                  f"load {load:.1f}" + (f", check {out['check']}" if out["check"] != "not run"
                                        else ""), file=sys.stderr, flush=True)
    return [row(c[0], runs[c], c[1]) for c in configs if runs[c]]


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1e3:.3f} ms"


def row(scaling: str, runs: list[dict], side: int | None = None) -> dict:
    """The fastest run of one configuration, with the check of the checked run and every
    run's time.  ``series``: the rows compared with each other (one strong series per grid
    side; weak: per side per rank)."""
    best = min(runs, key=lambda r: r["seconds_per_iteration"])
    checked = next((r for r in runs if r["check"] != "not run"), runs[0])
    return {
        "device": best["device"], "scaling": scaling,
        "series": f"{scaling} {side if side is not None else best['n']}",
        "ranks": best["ranks"], "gpus": best["gpus"], "mode": best["mode"],
        "n": best["n"], "points": best["points"], "points_per_rank": best["points_per_rank"],
        "dims": best["dims"], "omp_num_threads": best["omp_num_threads"],
        "exchange": best["exchange"], "exchange_reason": best.get("exchange_reason"),
        "iterations": best["iterations"],
        "seconds_per_iteration": best["seconds_per_iteration"],
        "compute_seconds_per_iteration": best.get("compute_seconds_per_iteration"),
        "exchange_seconds_per_iteration": best["exchange_seconds_per_iteration"],
        "exposed_exchange_seconds_per_iteration":
            best.get("exposed_exchange_seconds_per_iteration"),
        "allreduce_seconds_per_iteration": best.get("allreduce_seconds_per_iteration"),
        "halo_bytes_per_rank": max(p["halo_bytes"] for p in best["per_rank"]),
        "gbps_per_rank": [round(p["gbps"], 3) for p in best["per_rank"]],
        "check": checked["check"],
        "check_relative_difference": checked["check_relative_difference"],
        "check_tolerance": checked["check_tolerance"],
        "repeats_seconds_per_iteration": [r["seconds_per_iteration"] for r in runs],
        # the machine's 1-minute load average before each run (other jobs share its cores)
        "repeats_load_average": [r["load_average"] for r in runs],
    }


def cores_used(r: dict, cores: int) -> int:
    """Cores a configuration can keep busy: one per thread of each rank, at most the
    machine's (openmp on one rank already takes every core)."""
    return min(r["ranks"] * (r["omp_num_threads"] or 1), cores)


def _base(rows: list[dict], r: dict) -> dict | None:
    """The one-rank row of ``r``'s series and mode (rows of older files: of its scaling)."""
    series = r.get("series", r["scaling"])
    return next((b for b in rows if b.get("series", b["scaling"]) == series
                 and b["mode"] == r["mode"] and b["ranks"] == 1), None)


def speedup(rows: list[dict], r: dict) -> float | None:
    """Throughput (points x iterations per second) against the one-rank row of the same mode
    and series: t1 / tR for strong scaling, R t1 / tR (per point) for weak."""
    base = _base(rows, r)
    if base is None:
        return None
    rate = r["points"] / r["seconds_per_iteration"]
    return rate / (base["points"] / base["seconds_per_iteration"])


def bound(rows: list[dict], r: dict, cores: int) -> float | None:
    """The most ``speedup`` can be: the ratio of GPUs used (GPU modes), or on ``cores``
    cores the ratio of cores kept busy (CPU modes)."""
    base = _base(rows, r)
    if base is None:
        return None
    if r["gpus"] and base["gpus"]:
        return r["gpus"] / base["gpus"]
    return cores_used(r, cores) / cores_used(base, cores)


def markdown(rows: list[dict], cores: int) -> str:
    lines = ["| scaling | mode | ranks | threads/rank | grid | points/rank | exchange | "
             "ms/iter | compute ms | exchange ms (alone) | exposed ms | all-reduces ms | "
             "GB/s per rank | speed-up | at most | efficiency | check |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]

    def ms(value: float | None) -> str:
        return "" if value is None else f"{value * 1e3:.3f}"

    for r in rows:
        up, top = speedup(rows, r), bound(rows, r, cores)
        lines.append(
            f"| {r['scaling']} | {r['mode']} | {r['ranks']} | {r['omp_num_threads'] or 1} | "
            f"{r['n']}² ({r['dims'][0]}x{r['dims'][1]}) | {r['points_per_rank']:,} | "
            f"{r['exchange']} | {ms(r['seconds_per_iteration'])} | "
            f"{ms(r.get('compute_seconds_per_iteration'))} | "
            f"{ms(r['exchange_seconds_per_iteration'])} | "
            f"{ms(r.get('exposed_exchange_seconds_per_iteration'))} | "
            f"{ms(r.get('allreduce_seconds_per_iteration'))} | "
            f"{' / '.join(f'{g:.1f}' for g in r['gbps_per_rank'])} | "
            f"{'' if up is None else f'{up:.2f}'} | {'' if top is None else f'{top:g}'} | "
            f"{'' if up is None or not top else f'{up / top:.3f}'} | {r['check']} |")
    return "\n".join(lines)


def chart(rows: list[dict], folder: Path, cores: int) -> list[Path]:
    """One PNG per series (scaling and size): ms per iteration against ranks, one line per
    mode, the halo exchange alone dashed and its exposed part dash-dotted; dotted, the best
    that the GPUs or ``cores`` cores allow (the one-rank time scaled by the work per busy
    GPU or core)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for series in sorted({r.get("series", r["scaling"]) for r in rows}):
        scaling = series.split()[0]
        mine = [r for r in rows if r.get("series", r["scaling"]) == series]
        gpus = any(r["gpus"] for r in mine)
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        for mode in sorted({r["mode"] for r in mine}):
            sel = sorted((r for r in mine if r["mode"] == mode), key=lambda r: r["ranks"])
            ranks = [r["ranks"] for r in sel]
            total = [r["seconds_per_iteration"] * 1e3 for r in sel]
            line, = ax.plot(ranks, total, "o-", label=f"{mode}: iteration")
            multi = [r for r in sel if r["ranks"] > 1]
            ax.plot([r["ranks"] for r in multi],
                    [r["exchange_seconds_per_iteration"] * 1e3 for r in multi], "s--",
                    color=line.get_color(), alpha=0.7, label=f"{mode}: halo exchange alone")
            exposed = [r for r in multi
                       if r.get("exposed_exchange_seconds_per_iteration") is not None]
            if exposed:
                ax.plot([r["ranks"] for r in exposed],
                        [max(r["exposed_exchange_seconds_per_iteration"] * 1e3, 1e-4)
                         for r in exposed], "x-.", color=line.get_color(), alpha=0.7,
                        label=f"{mode}: exposed exchange")
            if sel and sel[0]["ranks"] == 1:
                ideal = [total[0] / bound(rows, r, cores) * r["points"] / sel[0]["points"]
                         for r in sel]
                ax.plot(ranks, ideal, ":", color=line.get_color(), alpha=0.6,
                        label=f"{mode}: ideal" if gpus else f"{mode}: best {cores} cores allow")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(sorted({r["ranks"] for r in rows}))
        ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax.set_xlabel("MPI ranks (one GPU each)" if gpus else "MPI ranks")
        ax.set_ylabel("ms per CG iteration (best of runs)")
        what = ("fixed grid" if scaling == "strong" else "fixed points per rank")
        ax.set_title(f"poisson.py {series} ({what}), "
                     + ("one GPU per rank" if gpus else f"{cores} shared cores"), fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
        fig.tight_layout()
        path = folder / f"poisson_{series.replace(' ', '_')}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    today = datetime.date.today().isoformat()
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--modes", default="openmp,serial")
    p.add_argument("--ranks", default="1,2,4")
    p.add_argument("--scalings", default="strong,weak")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--iters", type=int, default=60, help="CG iterations per timed run")
    p.add_argument("--strong-n", default="2048",
                   help="grid side(s), strong scaling: one series per side (e.g. 8192,16384)")
    p.add_argument("--weak-n", type=int, default=2048,
                   help="grid side per rank (sqrt of points per rank), weak scaling")
    p.add_argument("--timeout", type=int, default=600, help="seconds per mpiexec job")
    p.add_argument("--exchange", default="auto",
                   help="the example's --exchange: auto, nccl, mpi-device or host")
    p.add_argument("--mpiexec", default=os.environ.get("MPIEXEC"),
                   help="the launcher (default: $MPIEXEC, the mpiexec beside this Python, "
                        "else PATH's); it must belong to the MPI library mpi4py loads")
    p.add_argument("--out", type=Path, default=None,
                   help="default benchmarks/results/mpi-cpu-<date>.json (mpi-gpu- for "
                        "cuda/hip)")
    p.add_argument("--charts", type=Path, default=None)
    p.add_argument("--report", type=Path, default=None, metavar="JSON",
                   help="only print the table and draw the charts of a committed run")
    args = p.parse_args(argv)
    if args.report is not None:
        doc = json.loads(args.report.read_text())
        charts = args.report.parent / args.report.name.replace("mpi-", "charts-mpi-", 1)
        paths = chart(doc["rows"], charts.with_suffix(""), doc["cores"])
        print(markdown(doc["rows"], doc["cores"]))
        print(f"\ndrew {', '.join(str(p) for p in paths)}")
        return 0
    modes = [m for m in args.modes.split(",") if m]
    ranks = [int(r) for r in args.ranks.split(",") if r]
    scalings = [s for s in args.scalings.split(",") if s]
    strong_n = [int(n) for n in str(args.strong_n).split(",") if n]
    kind = "gpu" if any(m in ("cuda", "hip") for m in modes) else "cpu"
    out = args.out or HERE / "results" / f"mpi-{kind}-{today}.json"
    charts = args.charts or out.parent / out.name.replace("mpi-", "charts-mpi-", 1)
    charts = charts.with_suffix("")

    # the settings the other CPU benchmarks use (benchmarks/__main__.py); no thread
    # binding: several ranks would all bind to the same cores
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    rows = measure(modes, ranks, scalings, args.repeat, args.iters, strong_n,
                   args.weak_n, args.timeout, args.exchange, args.mpiexec)
    from benchmarks.common import cpu_name
    doc = {
        "benchmark": "examples/distributed/poisson.py (CG, 5-point Laplacian, halo exchange "
                     "and all-reduces through okl.mpi.Communicator)",
        "date": today, "machine": platform.node(), "cpu": cpu_name(),
        "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "command": "python -m benchmarks.mpi_scaling " + " ".join(argv or sys.argv[1:]),
        "method": f"best of {args.repeat} runs per configuration (in rounds: every "
                  f"configuration once per round), {args.iters} CG iterations "
                  "each after 2 untimed ones; seconds_per_iteration and its parts: the "
                  "slowest rank's (compute: the iterations with the halo exchange skipped; "
                  "exchange: the halo exchange alone; exposed: seconds_per_iteration - "
                  "compute; all-reduces: the iteration's two alone); GB/s per rank: 88 "
                  "bytes per point and iteration over the whole iteration's time; check: "
                  "the first run against the one-rank solve",
        "devices": sorted({r["device"] for r in rows if "device" in r}),
        "mpi": _mpi_version(),
        "rows": rows,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1) + "\n")
    print(markdown(rows, doc["cores"]))
    try:
        paths = chart(rows, charts, doc["cores"])
    except ImportError as e:  # no matplotlib: the numbers are written all the same
        print(f"no charts ({e})")
        paths = []
    print(f"\nwrote {out}" + (f" and {', '.join(str(p) for p in paths)}" if paths else ""))
    return 1 if not rows or any(r["check"] != "pass" for r in rows) else 0


def _mpi_version() -> str:
    out = subprocess.run([sys.executable, "-c", "from mpi4py import MPI; import mpi4py; "
                          "print('mpi4py', mpi4py.__version__, '/', "
                          "MPI.Get_library_version().splitlines()[0])"],
                         capture_output=True, text=True)
    return " ".join(out.stdout.split())


if __name__ == "__main__":
    sys.exit(main())
