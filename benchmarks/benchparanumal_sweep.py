"""benchParanumal's problems over degrees on one okl mode, and their parity with OCCA's run.

    python -m benchmarks.benchparanumal_sweep --kernels CHECKOUT --mode cuda \\
        --problems BK1,BK2,BP5 --degrees 1-8 [--ndofs 4e6] [--json OUT.json] \\
        [--occa DUMPS [--occa-inputs]]

One benchParanumal line per run (``benchmarks.benchparanumal_compare`` reads them), as
``examples/benchparanumal/run.py`` prints it.  ``--occa DUMPS``: the folder that
``benchmarks/benchparanumal_occa/run.sh`` filled (``DUMPS=...``: per run, OCCA's outputs and its
log); each run then also reports, per BK, the largest difference of okl's operator output
from OCCA's relative to OCCA's largest entry, per BP both iteration counts, both final
residuals, the largest relative difference of the residual over the iterations and the same
for the solution.  ``--occa-inputs`` (dumps made with ``DUMP_SETUP=1``): okl's kernels read
OCCA's own mesh arrays instead of the driver's, after checking that both number the nodes
alike; what differs then is okl's translation and launch of the same kernels alone.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "benchparanumal"
sys.path.insert(0, str(EXAMPLE))

import hexmesh  # noqa: E402
import run  # noqa: E402
from problems import parse  # noqa: E402

import okl  # noqa: E402

#: OCCA's arrays that the driver computes itself (dump names, which are Setup.o's keys)
SETUP_ARRAYS = ("x", "y", "z", "wJ", "ggeo", "gllw", "D", "MM", "cubwJ", "cubggeo",
                "cubInterp", "cubD")
_CG_LINE = re.compile(r"CG: it (\d+), r norm (\S+),")


def degrees(text: str) -> list[int]:
    """``1-8`` or ``3,7``."""
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(d) for d in text.split(",")]


def relative(a: np.ndarray, b: np.ndarray) -> float:
    """max |a - b| / max |b| (b: OCCA's)."""
    scale = float(np.max(np.abs(b))) if b.size else 0.0
    return float(np.max(np.abs(a - b))) / scale if scale else float(np.max(np.abs(a - b)))


def load_inputs(s: run.Setup, folder: Path) -> None:
    """Replace the driver's mesh arrays with OCCA's (same sizes required) after checking the
    numbering is the same."""
    g2l = np.fromfile(folder / "GlobalToLocal.bin", np.int32)
    if not np.array_equal(g2l, s.num.global_to_local):
        raise SystemExit(f"{folder}: OCCA's GlobalToLocal differs from the driver's numbering")
    for name in SETUP_ARRAYS:
        path = folder / f"{name}.bin"
        if name not in s.o or not path.exists():
            continue
        theirs = np.fromfile(path, np.float64)
        if theirs.size != s.o[name].size:
            raise SystemExit(f"{path}: {theirs.size} values, the driver's {name} has "
                             f"{s.o[name].size}")
        s.o[name] = s.dev.asarray(theirs)


def occa_history(folder: Path) -> list[float]:
    text = (folder / "log.txt").read_text()
    return [float(m.group(2)) for m in _CG_LINE.finditer(text)]


def parity(r: dict, folder: Path) -> dict:
    """What the issue's table reports beside the speeds, from OCCA's dump of the same run."""
    if "Aq" in r:
        return {"q_rel": relative(r["q"].get(), np.fromfile(folder / "q.bin")),
                "Aq_rel": relative(r["Aq"].get(), np.fromfile(folder / "Aq.bin"))}
    theirs, ours = occa_history(folder), r["history"]
    n = min(len(theirs), len(ours))
    diffs = [abs(a - b) / abs(b) for a, b in zip(ours[:n], theirs[:n], strict=True) if b]
    over = next((k for k, d in enumerate(diffs) if not d <= 1e-10), None)  # NaN: over
    # how far the residual had fallen (relative to iteration 1's) when the two first differ
    # by more than 1e-10: past rounding level the residual is noise on any two machines
    fallen = theirs[over] / theirs[0] if over is not None and theirs[0] else None
    return {"occa_iterations": len(theirs),
            "occa_residual": theirs[-1] if theirs else float("nan"),
            "residual_rel_max": max(diffs) if diffs else float("nan"),
            "residual_rel_final": diffs[-1] if diffs else float("nan"),
            "first_iteration_over_1e-10": None if over is None else over + 1,
            "occa_residual_fallen_there": fallen,
            "x_rel": relative(r["x"].get(), np.fromfile(folder / "solution.bin"))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernels", type=Path, required=True, help="a benchParanumal checkout")
    ap.add_argument("--mode", default="cuda")
    ap.add_argument("--problems", default="BK1,BK2,BK3,BK4,BK5,BK6,BP1,BP2,BP3,BP4,BP5,BP6")
    ap.add_argument("--degrees", type=degrees, default=degrees("1-8"))
    ap.add_argument("--ndofs", type=float, default=4e6)
    ap.add_argument("--nx", type=int, help="elements per direction (default: from --ndofs)")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--occa", type=Path, help="run.sh's DUMPS folder of the same runs")
    ap.add_argument("--occa-inputs", action="store_true",
                    help="run on OCCA's mesh arrays (dumped with DUMP_SETUP=1)")
    args = ap.parse_args(argv)
    if args.occa_inputs and not args.occa:
        ap.error("--occa-inputs needs --occa")
    dev = okl.Device(args.mode)
    rows = []
    for name in args.problems.split(","):
        p = parse(name)
        for N in args.degrees:
            t0 = time.perf_counter()
            nx = args.nx or hexmesh.box_size(args.ndofs, N, p.nfields)
            s = run.Setup(dev, args.kernels, p, N, nx, nx, nx, args.mode)
            folder = args.occa / f"{p.name}-N{N}" if args.occa else None
            if args.occa_inputs and folder is not None:
                load_inputs(s, folder)
            setup_s = time.perf_counter() - t0
            r = run.run_bp(s) if p.solve else run.run_bk(s)
            line = run.bp_line(r) if p.solve else run.bk_line(r)
            row = {k: v for k, v in r.items() if isinstance(v, (int, float, str))}
            row.update(nx=nx, mode=args.mode, device=dev.name, setup_s=round(setup_s, 2),
                       occa_inputs=args.occa_inputs)
            if folder is not None:
                row.update(parity(r, folder))
                line += "  parity " + json.dumps({k: row[k] for k in row
                                                  if k.endswith(("_rel", "_max", "_final",
                                                                 "iterations", "residual",
                                                                 "1e-10", "_there"))})
            print(line, f"[setup {setup_s:.1f} s]", flush=True)
            rows.append(row)
            if args.json:
                args.json.write_text(json.dumps(rows, indent=1) + "\n")
            del s, r
    return 0


if __name__ == "__main__":
    sys.exit(main())
