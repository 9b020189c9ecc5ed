"""benchParanumal on okl against benchParanumal on OCCA: one table from their printed lines.

    python -m benchmarks.benchparanumal_compare OCCA.txt [OCCA.txt ...] -- OKL.txt [...]

Each file holds the lines the programs print (``BK5: N= 7, DOFs=..., ...``): OCCA's from
benchParanumal's own executables (``./BK/BK5/BK5 -m CUDA -e Hex -nx NX -ny NX -nz NX -p N``),
okl's from ``examples/benchparanumal/run.py`` on the same machine.  Per problem and degree:
DOFs, the throughput each prints (BK: DOFs per second, BP: DOFs x iterations per second),
okl / OCCA, and for BPs both iteration counts and okl's final residual.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

_LINE = re.compile(r"^(B[KP]\d): N=\s*(\d+), DOFs=(\d+), elapsed=[\d.]+, (?:iterations=(\d+), )?"
                   r".*?(?:DOFs/ranks\*time|DOFs\*iterations/ranks\*time)=([\d.e+-]+)"
                   r"(?:.*final residual ([\d.e+-]+))?")


def read(paths: list[str]) -> dict[tuple[str, int], dict]:
    rows: dict[tuple[str, int], dict] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            m = _LINE.match(line.strip())
            if m:
                name, n, dofs, its, rate, res = m.groups()
                rows[(name, int(n))] = {"DOFs": int(dofs), "rate": float(rate),
                                        "iterations": int(its) if its else None,
                                        "residual": res}
    return rows


def table(occa: dict, okl: dict) -> str:
    out = ["| problem | N | DOFs | OCCA | okl | okl / OCCA | iterations (OCCA, okl) |",
           "|---|---|---|---|---|---|---|"]
    for key in sorted(set(occa) & set(okl), key=lambda k: (k[0][:2], int(k[0][2]), k[1])):
        a, b = occa[key], okl[key]
        its = f"{a['iterations']}, {b['iterations']}" if a["iterations"] else "–"
        out.append(f"| {key[0]} | {key[1]} | {a['DOFs']} | {a['rate']:.3g} | {b['rate']:.3g} | "
                   f"{b['rate'] / a['rate']:.3f} | {its} |")
    return "\n".join(out)


def main(argv: list[str]) -> None:
    if "--" not in argv:
        sys.exit(__doc__)
    k = argv.index("--")
    print(table(read(argv[:k]), read(argv[k + 1:])))


if __name__ == "__main__":
    main(sys.argv[1:])
