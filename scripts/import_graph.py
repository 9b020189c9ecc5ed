"""okl's import graph in numbers: modules, edges, imports that climb a floor, cycles, the
largest files and the files per folder (the graph and the floors of tests/test_layout.py).

    python scripts/import_graph.py [TREE]

TREE: another checkout of okl (an older commit's, say); default: this one.  The targets'
old package name ``okl.backends`` is placed on their floor, so older trees compare.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE / "tests"))

import test_layout  # noqa: E402  (tests/ is not a package)


def main(argv: list[str]) -> None:
    root = Path(argv[0]) if argv else HERE
    package = root / "okl"
    test_layout.PACKAGE = package
    graph = test_layout.graph()
    layers = list(test_layout.LAYERS)
    layers[3] = layers[3] + ("okl.backends",)
    test_layout.LAYERS = tuple(layers)
    uphill = sorted((a, b) for a, targets in graph.items() for b in targets
                    if test_layout.layer(a) < test_layout.layer(b))
    edges = sum(len(targets) for targets in graph.values())
    print(f"modules {len(graph)}, import edges {edges}, climbing a floor {len(uphill)}, "
          f"cycle {test_layout.find_cycle(graph)}")
    for a, b in uphill:
        print(f"  {a} -> {b}")
    files = list(package.rglob("*.py"))
    sizes = sorted(((len(p.read_text().splitlines()), str(p.relative_to(root))) for p in files),
                   reverse=True)
    print("largest:", ", ".join(f"{name} {n}" for n, name in sizes[:6]))
    folders: dict[str, int] = {}
    for p in files:
        key = str(p.parent.relative_to(root))
        folders[key] = folders.get(key, 0) + 1
    print("files per folder:", ", ".join(f"{k} {v}" for k, v in sorted(folders.items())))


if __name__ == "__main__":
    main(sys.argv[1:])
