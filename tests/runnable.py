"""The kernels that compute something checkable: ``<name>.okl`` plus ``<name>.ref.py`` under
tests/kernels or tests/golden (the format: tests/test_execute.py).  Shared by the tests that
run them: against numpy, under the race checker, across modes with okl.compare."""

from __future__ import annotations

import importlib.util
import pathlib

HERE = pathlib.Path(__file__).parent
CASES = sorted(list((HERE / "kernels").glob("*.ref.py"))
               + list((HERE / "golden").rglob("*.ref.py")))


def load(path: pathlib.Path):
    """The ``.ref.py`` module of a case."""
    spec = importlib.util.spec_from_file_location(path.stem.replace(".", "_"), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def okl_file(case: pathlib.Path) -> pathlib.Path:
    return case.with_name(case.name.removesuffix(".ref.py") + ".okl")


def case_id(case: pathlib.Path) -> str:
    return str(case.relative_to(HERE)).removesuffix(".ref.py")
