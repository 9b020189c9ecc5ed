"""okl's modules depend on each other one way only.

An import circle hides which module is the lower one: each side can only import the other
inside functions, so the order that makes sense is lost and a new top-level import can break
``import okl`` at a distance.  This test reads every module of the package with ``ast``
(imports at top level and inside functions alike: lazy imports that go both ways are still a
circle), builds the graph of okl-internal dependencies and fails on any cycle, naming it.

An import of a submodule is an edge to that submodule only: the parent packages that Python
imports first are not counted, or every ``__init__.py`` that re-exports would close a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import okl

PACKAGE = Path(okl.__file__).resolve().parent


def _modules() -> dict[str, Path]:
    """Dotted name -> file, for every module of the okl package (packages by __init__.py)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ("okl",) + path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The okl modules that ``name`` imports anywhere in its file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            # ``from pkg import sub`` imports the submodule; ``from mod import name`` the module
            targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source
                       for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:  # ``import okl.x.y`` as far as it exists
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle as [a, b, ..., a], or None: a depth-first search that meets a module still
    on its own path."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(node: str) -> list[str] | None:
        path.append(node)
        on_path.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt in on_path:
                return path[path.index(nxt):] + [nxt]
            if nxt not in done:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        on_path.discard(node)
        done.add(node)
        return None

    for start in sorted(edges):
        if start not in done:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


def test_graph_sees_lazy_and_relative_imports():
    edges = graph()
    assert "okl.runtime.cache" in edges["okl.runtime.device"]      # top level, relative
    assert "okl.runtime.stream" in edges["okl.runtime.device"]     # inside a method
    # ``from . import cvalues``
    assert "okl.runtime.launch.cvalues" in edges["okl.runtime.launch.hostcode"]
    assert "okl.errors" in edges["okl.runtime.launch.args"]  # two dots up


def test_find_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_no_import_cycles():
    cycle = find_cycle(graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)
