"""Weak scaling of the benchParanumal driver (examples/benchparanumal/run.py) over MPI ranks.

    python -m benchmarks.benchparanumal_scaling --ranks 1,2,4 --problem BP5 --degree 7 \\
        --ndofs-per-rank 4e6 --mode cuda [--kernels CHECKOUT] [--check] [--repeat 3]

runs ``mpiexec -n R python examples/benchparanumal/run.py --ndofs-per-rank D ...`` for every
rank count R (one rank per GPU on cuda/hip: the driver takes GPU ``local_rank % GPUs``): each
rank holds a box of D DOFs, the boxes stacked along z (slab partition), so the work per
rank is the same at every R.  Each configuration runs ``--repeat`` times, in rounds, and
keeps the fastest run.  Writes one JSON document (``--out``, default
``benchmarks/results/benchparanumal-<mode>-<date>.json``): one row per rank count with the
driver's JSON line (DOFs per rank, iterations, seconds, DOFs*iterations/(ranks*time), the
exchange mode, the compute, exchange and exposed seconds per iteration), the weak
efficiency -- DOFs*iterations/(ranks*time) at R over the same at the fewest ranks run (1,
where listed) -- and whether every rank count ran as many CG iterations as that one.  Prints
a markdown table.  Exit status 1 when a job fails, iterations differ, or a ``--check``
fails.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

from .mpi_scaling import mpiexec

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DRIVER = ROOT / "examples" / "benchparanumal" / "run.py"
THROUGHPUT = "DOFs*iterations/(ranks*time)"




def driver_args(args: argparse.Namespace) -> list[str]:
    """run.py's arguments, the same for every rank count."""
    out = ["--problem", args.problem, "--degree", str(args.degree), "--ndofs-per-rank",
           str(args.ndofs_per_rank), "--mode", args.mode, "--iterations", str(args.iterations),
           "--warmup-iterations", str(args.warmup_iterations), "--exchange", args.exchange,
           "--sums", args.sums, "--graphs", args.graphs]
    if args.kernels is not None:
        out += ["--kernels", str(args.kernels)]
    return out


def run_once(ranks: int, args: argparse.Namespace, check: bool) -> dict:
    """One mpiexec job: rank 0's JSON report.  A job without a report raises with its output."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        cmd = [mpiexec(), "-n", str(ranks), sys.executable, str(DRIVER), *driver_args(args),
               "--json", str(report)]
        if check:
            cmd.append("--check")
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env,
                              timeout=args.timeout)
        if not report.exists():
            raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode} without a report:\n"
                               f"{proc.stdout}{proc.stderr}")
        out = json.loads(report.read_text())
        out["returncode"] = proc.returncode
        out["command"] = " ".join(["mpiexec", "-n", str(ranks), "python",
                                   "examples/benchparanumal/run.py", *driver_args(args)])
        return out


def measure(args: argparse.Namespace, ranks_list: list[int]) -> list[dict]:
    """Every rank count ``--repeat`` times, in rounds; the fastest run of each (the first
    round's ``--check`` kept with it)."""
    runs: dict[int, list[dict]] = {r: [] for r in ranks_list}
    for round_ in range(args.repeat):
        for r in ranks_list:
            got = run_once(r, args, check=args.check and round_ == 0)
            runs[r].append(got)
            print(f"  ranks {r}: {got['seconds']:.4f} s, {got['iterations']} iterations, "
                  f"exchange {got['exchange']}", file=sys.stderr, flush=True)
    rows = []
    for r in ranks_list:
        best = dict(min(runs[r], key=lambda x: x["seconds"]))
        first = runs[r][0]
        for key in ("check", "check_relative_difference", "check_one_rank_iterations"):
            if key in first:
                best[key] = first[key]
        best["repeats_seconds"] = [x["seconds"] for x in runs[r]]
        best["returncodes"] = [x["returncode"] for x in runs[r]]
        rows.append(best)
    return rows


def weak_efficiency(rows: list[dict]) -> None:
    """Each row's efficiency against the row with the fewest ranks, and whether its CG ran as
    many iterations (in place)."""
    base = min(rows, key=lambda r: r["ranks"])
    for r in rows:
        r["weak_efficiency"] = r[THROUGHPUT] / base[THROUGHPUT]
        r["iterations_equal_to_base"] = r["iterations"] == base["iterations"]


def markdown(rows: list[dict]) -> str:
    lines = ["| ranks | DOFs per rank | iterations | s | DOFs*it/(ranks*s) | efficiency | "
             "exchange | sums | graphs | compute ms/it | exchange ms/it | exposed ms/it | check |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(
            f"| {r['ranks']} | {r['DOFs_per_rank']:.0f} | {r['iterations']} | "
            f"{r['seconds']:.4f} | {r[THROUGHPUT]:.3e} | {r['weak_efficiency']:.3f} | "
            f"{r['exchange']} | {r.get('sums', '-')} | {r.get('graphs', '-')} | "
            f"{1e3 * r['compute_seconds_per_iteration']:.3f} | "
            f"{1e3 * r['exchange_seconds_per_iteration']:.3f} | "
            f"{1e3 * r['exposed_seconds_per_iteration']:.3f} | {r.get('check', 'not run')} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    today = datetime.date.today().isoformat()
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ranks", default="1,2,4")
    p.add_argument("--problem", default="BP5")
    p.add_argument("--degree", type=int, default=7)
    p.add_argument("--ndofs-per-rank", type=float, default=4e6)
    p.add_argument("--mode", default="cuda")
    p.add_argument("--kernels", type=Path, default=None,
                   help="a benchParanumal checkout (default: okl's stand-ins)")
    p.add_argument("--exchange", default="auto", help="okl.mpi.Communicator's mode")
    p.add_argument("--sums", choices=("host", "device", "resident"), default="host",
                   help="where CG sums its dots over the ranks (run.py --sums)")
    p.add_argument("--graphs", choices=("auto", "off"), default="auto",
                   help="resident sums on cuda: CG's iterations as CUDA graphs (run.py "
                        "--graphs)")
    p.add_argument("--iterations", type=int, default=100)
    p.add_argument("--warmup-iterations", type=int, default=1000)
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--check", action="store_true",
                   help="first round: each rank count's answer against one rank's solve")
    p.add_argument("--timeout", type=int, default=1800, help="seconds per mpiexec job")
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    try:
        ranks_list = sorted({int(r) for r in args.ranks.split(",") if r.strip()})
    except ValueError:
        p.error(f"--ranks {args.ranks!r}: a comma-separated list of rank counts, e.g. 1,2,4")
    if not ranks_list or ranks_list[0] < 1:
        p.error("--ranks: rank counts of at least 1")
    if args.repeat < 1:
        p.error("--repeat must be at least 1")
    out = args.out or HERE / "results" / f"benchparanumal-{args.mode}-{today}.json"
    try:
        rows = measure(args, ranks_list)
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        print(f"benchparanumal_scaling: error: {e}", file=sys.stderr)
        return 1
    weak_efficiency(rows)
    doc = {
        "benchmark": "examples/benchparanumal/run.py on several ranks: weak scaling, slabs "
                     "along z, one rank per GPU",
        "date": today, "machine": platform.node(),
        "command": "python -m benchmarks.benchparanumal_scaling " +
                   " ".join(argv if argv is not None else sys.argv[1:]),
        "method": f"best of {args.repeat} runs per rank count (in rounds); each run "
                  f"{args.warmup_iterations} untimed CG iterations then {args.iterations} "
                  "timed (finish + barrier either side); efficiency: DOFs*iterations/"
                  "(ranks*time) over the fewest ranks' value; compute: the same solve with "
                  "no communication; exposed: the real solve's time less compute; exchange: "
                  "the iteration's two exchanges and two all-reduces alone (on the host after the "
                  "read-back, or on the device: the row's sums)",
        "weak_efficiency": {str(r["ranks"]): r["weak_efficiency"] for r in rows},
        "iterations_equal_to_one_rank": all(r["iterations_equal_to_base"] for r in rows),
        "rows": rows,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1) + "\n")
    print(markdown(rows))
    print(f"\nwrote {out}")
    failed = any(any(rc != 0 for rc in r["returncodes"]) or r.get("check") is False
                 for r in rows)
    return 1 if failed or not doc["iterations_equal_to_one_rank"] else 0


if __name__ == "__main__":
    sys.exit(main())
