"""benchParanumal on okl against benchParanumal on OCCA: one table from their printed lines.

    python -m benchmarks.benchparanumal_compare OCCA.txt [OCCA.txt ...] -- OKL.txt|OKL.json [...]

Each text file holds the lines the programs print (``BK5: N= 7, DOFs=..., ...``): OCCA's from
benchParanumal's own executables (``benchmarks/benchparanumal_occa/run.sh``), okl's from
``examples/benchparanumal/run.py`` or ``benchmarks.benchparanumal_sweep`` on the same machine;
a JSON file is the sweep's ``--json``, whose parity fields (``--occa``) add columns.  Per
problem and degree: DOFs, the throughput each prints (BK: DOFs per second, BP: DOFs x
iterations per second), okl / OCCA; for BKs the largest difference of okl's operator output
from OCCA's (relative to OCCA's largest entry); for BPs both iteration counts and final
residuals, the same difference for the solution, and the iteration up to which the two
residual histories agree to 1e-10 relative.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

_LINE = re.compile(r"^(B[KP]\d): N=\s*(\d+), DOFs=(\d+), elapsed=[\d.]+, (?:iterations=(\d+), )?"
                   r".*?(?:DOFs/ranks\*time|DOFs\*iterations/ranks\*time)=([\d.e+-]+)"
                   r"(?:.*final residual ([\d.e+-]+))?")


def read(paths: list[str]) -> dict[tuple[str, int], dict]:
    rows: dict[tuple[str, int], dict] = {}
    for path in paths:
        if path.endswith(".json"):
            for r in json.loads(Path(path).read_text()):
                rate = r["DOFs"] * r.get("iterations", 1) / r["elapsed"]
                rows[(r["problem"], int(r["N"]))] = dict(r, rate=rate)
            continue
        for line in Path(path).read_text().splitlines():
            m = _LINE.match(line.strip())
            if m:
                name, n, dofs, its, rate, res = m.groups()
                rows[(name, int(n))] = {"DOFs": int(dofs), "rate": float(rate),
                                        "iterations": int(its) if its else None,
                                        "residual": res}
    return rows


def _g(x) -> str:
    return "–" if x is None else f"{x:.2g}"


def table(occa: dict, okl: dict) -> str:
    out = ["| problem | N | DOFs | OCCA | okl | okl / OCCA | output Δ | iterations "
           "(OCCA, okl) | final residual (OCCA, okl) | agree to 1e-10 through |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for key in sorted(set(occa) & set(okl), key=lambda k: (k[0][:2], int(k[0][2]), k[1])):
        a, b = occa[key], okl[key]
        bp = bool(a["iterations"])
        its = f"{a['iterations']}, {b['iterations']}" if bp else "–"
        delta = _g(b.get("x_rel") if bp else b.get("Aq_rel"))
        res = f"{_g(b.get('occa_residual'))}, {_g(b.get('residual'))}" if bp else "–"
        agree = "–"
        if bp and "first_iteration_over_1e-10" in b:
            over = b["first_iteration_over_1e-10"]
            agree = "all 100" if over is None else \
                f"{over - 1} (OCCA's residual {_g(b['occa_residual_fallen_there'])} of it. 1's)"
        out.append(f"| {key[0]} | {key[1]} | {a['DOFs']} | {a['rate']:.3g} | {b['rate']:.3g} | "
                   f"{b['rate'] / a['rate']:.3f} | {delta} | {its} | {res} | {agree} |")
    return "\n".join(out)


def main(argv: list[str]) -> None:
    if "--" not in argv:
        sys.exit(__doc__)
    k = argv.index("--")
    print(table(read(argv[:k]), read(argv[k + 1:])))


if __name__ == "__main__":
    main(sys.argv[1:])
