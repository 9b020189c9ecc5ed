"""Strong and weak scaling of examples/distributed/poisson.py over MPI ranks on CPU modes.

    python -m benchmarks.mpi_scaling [--modes openmp,serial] [--ranks 1,2,4] [--repeat 3]

runs ``mpiexec -n R python examples/distributed/poisson.py --mode M --iters I --check`` for
every mode and rank count, twice over: *strong* scaling keeps the grid (``--strong-n``² points
in all), *weak* scaling keeps the points per rank (``--weak-n``² per rank: the grid side grows
as sqrt(R)).  Each configuration runs ``--repeat`` times, in rounds, and keeps the fastest run
(the least disturbed by other work on the machine); the first round also checks the answer
against the one-rank solve (later rounds skip the check, which only costs time after the
timed part).

Writes one JSON document (``--out``, default ``benchmarks/results/mpi-cpu-<date>.json``) with
one row per configuration -- ranks, gpus (0: CPU modes), mode, scaling, problem size, seconds
per iteration, exchange seconds per iteration, check result, GB/s per rank, every repeat's
time -- plus a PNG chart per scaling (``--charts``), and prints a markdown table (also
``--report FILE.json`` for a committed run: table and charts, no runs).

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


def run_once(mode: str, ranks: int, n: int, iters: int, check: bool, timeout: int) -> dict:
    """One mpiexec job; its report (rank 0's JSON).  A failed job raises with its output."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        cmd = [mpiexec(), "-n", str(ranks), sys.executable, str(EXAMPLE), "--mode", mode,
               "--n", str(n), "--iters", str(iters), "--json", str(report)]
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
            iters: int, strong_n: int, weak_n: int, timeout: int) -> list[dict]:
    """Every configuration, best of ``repeat`` runs, as result rows.  The runs go in rounds
    (every configuration once per round), so that a burst of other work on the machine
    slows one run of several configurations rather than every run of one."""
    configs = [(scaling, mode, ranks) for scaling in scalings for mode in modes
               for ranks in ranks_list]
    runs: dict[tuple, list[dict]] = {c: [] for c in configs}
    for i in range(repeat):
        for scaling, mode, ranks in configs:
            n = grid_side(scaling, ranks, strong_n, weak_n)
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
            out = run_once(mode, ranks, n, iters, check=(i == 0), timeout=timeout)
            out["load_average"] = load
            runs[(scaling, mode, ranks)].append(out)
            print(f"round {i + 1}: {scaling:6} {mode:7} {ranks} rank(s) n={n}: "
                  f"{out['seconds_per_iteration'] * 1e3:.2f} ms/iteration "
                  f"(exchange {out['exchange_seconds_per_iteration'] * 1e3:.2f}), load "
                  f"{load:.1f}" + (f", check {out['check']}" if i == 0 else ""),
                  file=sys.stderr, flush=True)
    return [row(scaling, runs[(scaling, mode, ranks)]) for scaling, mode, ranks in configs]


def row(scaling: str, runs: list[dict]) -> dict:
    """The fastest run of one configuration, with the check of the checked run and every
    run's time."""
    best = min(runs, key=lambda r: r["seconds_per_iteration"])
    checked = next(r for r in runs if r["check"] != "not run")
    return {
        "scaling": scaling, "ranks": best["ranks"], "gpus": best["gpus"], "mode": best["mode"],
        "n": best["n"], "points": best["points"], "points_per_rank": best["points_per_rank"],
        "dims": best["dims"], "omp_num_threads": best["omp_num_threads"],
        "exchange": best["exchange"], "iterations": best["iterations"],
        "seconds_per_iteration": best["seconds_per_iteration"],
        "exchange_seconds_per_iteration": best["exchange_seconds_per_iteration"],
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


def speedup(rows: list[dict], r: dict) -> float | None:
    """Throughput (points x iterations per second) against the one-rank row of the same mode
    and scaling: t1 / tR for strong scaling, R t1 / tR (per point) for weak."""
    base = next((b for b in rows if b["scaling"] == r["scaling"] and b["mode"] == r["mode"]
                 and b["ranks"] == 1), None)
    if base is None:
        return None
    rate = r["points"] / r["seconds_per_iteration"]
    return rate / (base["points"] / base["seconds_per_iteration"])


def bound(rows: list[dict], r: dict, cores: int) -> float | None:
    """The most ``speedup`` can be on ``cores`` cores: the ratio of cores kept busy."""
    base = next((b for b in rows if b["scaling"] == r["scaling"] and b["mode"] == r["mode"]
                 and b["ranks"] == 1), None)
    return None if base is None else cores_used(r, cores) / cores_used(base, cores)


def markdown(rows: list[dict], cores: int) -> str:
    lines = ["| scaling | mode | ranks | threads/rank | grid | points/rank | ms/iter | "
             "exchange ms/iter | GB/s per rank | speed-up | at most | check |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        up, top = speedup(rows, r), bound(rows, r, cores)
        lines.append(
            f"| {r['scaling']} | {r['mode']} | {r['ranks']} | {r['omp_num_threads'] or 1} | "
            f"{r['n']}² ({r['dims'][0]}x{r['dims'][1]}) | {r['points_per_rank']:,} | "
            f"{r['seconds_per_iteration'] * 1e3:.2f} | "
            f"{r['exchange_seconds_per_iteration'] * 1e3:.2f} | "
            f"{' / '.join(f'{g:.1f}' for g in r['gbps_per_rank'])} | "
            f"{'' if up is None else f'{up:.2f}'} | {'' if top is None else f'{top:g}'} | "
            f"{r['check']} |")
    return "\n".join(lines)


def chart(rows: list[dict], folder: Path, cores: int) -> list[Path]:
    """One PNG per scaling: ms per iteration against ranks, one line per mode, the exchange
    share dashed; dotted, the best that ``cores`` cores allow (the one-rank time scaled by
    the work per busy core)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for scaling in sorted({r["scaling"] for r in rows}):
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        for mode in sorted({r["mode"] for r in rows if r["scaling"] == scaling}):
            sel = sorted((r for r in rows if r["scaling"] == scaling and r["mode"] == mode),
                         key=lambda r: r["ranks"])
            ranks = [r["ranks"] for r in sel]
            total = [r["seconds_per_iteration"] * 1e3 for r in sel]
            exch = [r["exchange_seconds_per_iteration"] * 1e3 for r in sel]
            line, = ax.plot(ranks, total, "o-", label=f"{mode}: iteration")
            ax.plot(ranks, exch, "s--", color=line.get_color(), alpha=0.7,
                    label=f"{mode}: halo exchange")
            if sel and sel[0]["ranks"] == 1:
                ideal = [total[0] / bound(rows, r, cores) * r["points"] / sel[0]["points"]
                         for r in sel]
                ax.plot(ranks, ideal, ":", color=line.get_color(), alpha=0.6,
                        label=f"{mode}: best {cores} cores allow")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(sorted({r["ranks"] for r in rows}))
        ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax.set_xlabel("MPI ranks")
        ax.set_ylabel("ms per CG iteration (best of runs)")
        what = ("fixed grid" if scaling == "strong" else "fixed points per rank")
        ax.set_title(f"poisson.py {scaling} scaling ({what}), {cores} shared cores",
                     fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
        fig.tight_layout()
        path = folder / f"poisson_{scaling}.png"
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
    p.add_argument("--strong-n", type=int, default=2048, help="grid side, strong scaling")
    p.add_argument("--weak-n", type=int, default=2048,
                   help="grid side per rank (sqrt of points per rank), weak scaling")
    p.add_argument("--timeout", type=int, default=600, help="seconds per mpiexec job")
    p.add_argument("--out", type=Path, default=HERE / "results" / f"mpi-cpu-{today}.json")
    p.add_argument("--charts", type=Path, default=HERE / "results" / f"charts-mpi-cpu-{today}")
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

    # the settings the other CPU benchmarks use (benchmarks/__main__.py); no thread
    # binding: several ranks would all bind to the same cores
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    rows = measure(modes, ranks, scalings, args.repeat, args.iters, args.strong_n,
                   args.weak_n, args.timeout)
    from benchmarks.common import cpu_name
    doc = {
        "benchmark": "examples/distributed/poisson.py (CG, 5-point Laplacian, halo exchange "
                     "through mpi4py)",
        "date": today, "machine": platform.node(), "cpu": cpu_name(),
        "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "command": "python -m benchmarks.mpi_scaling " + " ".join(argv or sys.argv[1:]),
        "method": f"best of {args.repeat} runs per configuration (in rounds: every "
                  f"configuration once per round), {args.iters} CG iterations "
                  "each after 2 untimed ones; seconds_per_iteration and exchange seconds: "
                  "the slowest rank's; GB/s per rank: 88 bytes per point and iteration over "
                  "the whole iteration's time; check: the first run against the one-rank "
                  "solve",
        "mpi": _mpi_version(),
        "rows": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    paths = chart(rows, args.charts, doc["cores"])
    print(markdown(rows, doc["cores"]))
    print(f"\nwrote {args.out} and {', '.join(str(p) for p in paths)}")
    return 1 if any(r["check"] != "pass" for r in rows) else 0


def _mpi_version() -> str:
    out = subprocess.run([sys.executable, "-c", "from mpi4py import MPI; import mpi4py; "
                          "print('mpi4py', mpi4py.__version__, '/', "
                          "MPI.Get_library_version().splitlines()[0])"],
                         capture_output=True, text=True)
    return " ".join(out.stdout.split())


if __name__ == "__main__":
    sys.exit(main())
