"""okl's modules depend on each other one way only.

An import circle hides which module is the lower one: each side can only import the other
inside functions, so the order that makes sense is lost and a new top-level import can break
``import okl`` at a distance.  This test reads every module of the package with ``ast``
(imports at top level and inside functions alike: lazy imports that go both ways are still a
circle), builds the graph of okl-internal dependencies and fails on any cycle, naming it.

An import of a submodule is an edge to that submodule only: the parent packages that Python
imports first are not counted, or every ``__init__.py`` that re-exports would close a circle.

The same graph must also run downhill: okl's packages are floors in pipeline order
(:data:`LAYERS`), and an import from a lower floor to a higher one fails, naming the edge.
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


#: okl's floors, lowest first (docs/architecture.rst draws them): a module may import its own
#: floor and the floors below it, never one above.  A dotted prefix places a module (the
#: longest prefix wins).
LAYERS = (
    ("okl.errors", "okl.limits", "okl.version", "okl.modes", "okl.ctree", "okl.record",
     "okl.install", "okl.env", "okl.recursion", "okl.processes"),
    ("okl.parser",),
    ("okl.model",),
    ("okl.targets",),
    ("okl.transforms",),
    ("okl.frontend", "okl.translation", "okl.check"),
    ("okl.runtime",),
    ("okl.cli", "okl.console", "okl.entry", "okl.mpi", "okl.__main__", "okl"),
)


def layer(module: str) -> int | None:
    best: tuple[int, int] | None = None
    for floor, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and \
                    (best is None or len(prefix) > best[1]):
                best = (floor, len(prefix))
    return None if best is None else best[0]


def test_every_module_has_a_floor():
    assert [m for m in graph() if layer(m) is None] == []


def test_no_import_climbs_to_a_higher_floor():
    uphill = [f"{a} -> {b}" for a, targets in sorted(graph().items())
              for b in sorted(targets) if layer(a) < layer(b)]
    assert uphill == [], "imports from a lower floor to a higher one:\n" + "\n".join(uphill)


def test_layer_check_sees_a_climb():
    assert layer("okl.parser.cpp.inline") == 1 and layer("okl.runtime.device") == 6
    assert layer("okl.ctree") < layer("okl.model.build") < layer("okl.transforms.cpu.lower")


def test_every_mode_has_a_target_and_a_driver():
    """One row of okl.modes, one target, one driver: each row's classes load, the target
    says its mode, and the driver has every method of the Driver protocol."""
    from okl.modes import TABLE
    from okl.runtime.drivers.driver import METHODS
    from okl.targets.target import Target
    for mode in TABLE:
        target = mode.target_class()
        assert issubclass(target, Target) and target.mode == mode.name
        assert target.gpu == mode.gpu
        driver = mode.driver_class()
        missing = [m for m in METHODS if not hasattr(driver, m)]
        assert missing == [], f"{mode.name}: {driver.__name__} lacks {missing}"


def test_translating_imports_no_numpy():
    """A translation (``oklc translate``, ``okl.translate``) needs none of what only the
    runtime needs: types are held as numpy's names for them, made into dtypes when the runtime
    asks (okl.model.types)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    script = (
        "import sys, okl\n"
        "src = '''typedef struct { double a; int b[3]; } pair;\n"
        "@kernel void k(const int n, const pair *p, double4 *v, float *x) {\n"
        "  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {\n"
        "    if (i < n) x[i] = p[i].a + p[i].b[1] + v[i].w;\n  }\n}\n'''\n"
        "for mode in ('serial', 'openmp', 'opencl', 'cuda', 'hip'):\n"
        "    okl.translate(src, mode)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'numpy')[:3])\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=root, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_a_gpu_translation_loads_no_cpu_pass():
    import subprocess
    import sys

    script = ("import sys, okl\n"
              "okl.translate('@kernel void k(float *x) { for (int b = 0; b < 4; ++b; @outer) "
              "{ for (int t = 0; t < 8; ++t; @inner) { x[b * 8 + t] = t; } } }', 'cuda')\n"
              "print(sorted(m for m in sys.modules if m.startswith(('okl.transforms.cpu', "
              "'okl.transforms.races', 'okl.transforms.checked', 'okl.runtime'))))\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1], timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
