"""The golden translation corpus: case discovery and rendering (shared by the golden tests).

Layout, one folder per feature under ``tests/golden/``::

    <feature>/<case>.okl              the kernel source (the specification's input)
    <feature>/<case>.defines          optional: one NAME=VALUE (or NAME) per line, # comments
    <feature>/<case>.includes         optional: include folders, one per line, relative to
                                      the case folder
    <feature>/<case>.serial.c         expected serial C      } exactly one of these two per
    <feature>/<case>.serial.err       expected diagnostics   } mode: output or errors
    <feature>/<case>.openmp.c | .openmp.err
    <feature>/<case>.opencl.cl | .opencl.err
    <feature>/<case>.cuda.cu | .cuda.err
    <feature>/<case>.hip.cpp | .hip.err
    <feature>/<case>.<mode>.warn      warnings of a successful translation (only when any)
    <feature>/<case>.launcher.txt     Translation.launcher(); identical for every mode that
                                      translates (absent when none does)

Cases under ``tests/golden/checked/`` are translated with ``check_bounds=True`` (okl's
checked mode, okl.transforms.checked); every other case without it.

Cases are translated the way a user runs ``oklc translate <case>.okl`` inside the case folder,
so ``#line`` directives and diagnostics name files relative to it and never depend on where
the repository lives.  ``tests/golden/errors/`` is another corpus (``oklc check``
diagnostics, mode independent) with its own layout; it is not a translation corpus.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from okl.modes import MODES

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"

OUTPUT_SUFFIX = {
    "serial": ".serial.c",
    "openmp": ".openmp.c",
    "opencl": ".opencl.cl",
    "cuda": ".cuda.cu",
    "hip": ".hip.cpp",
}
LAUNCHER_SUFFIX = ".launcher.txt"
#: folders of tests/golden that hold other corpora
OTHER_CORPORA = {"errors"}
#: the folder whose cases are translated in checked mode
CHECKED = "checked"

_CWD_LOCK = threading.Lock()


@dataclass(frozen=True)
class Case:
    feature: str
    name: str

    @property
    def id(self) -> str:
        return f"{self.feature}/{self.name}"

    @property
    def folder(self) -> Path:
        return GOLDEN_DIR / self.feature

    @property
    def source(self) -> Path:
        return self.folder / f"{self.name}.okl"

    def path(self, suffix: str) -> Path:
        return self.folder / f"{self.name}{suffix}"

    def output_path(self, mode: str) -> Path:
        return self.path(OUTPUT_SUFFIX[mode])

    def error_path(self, mode: str) -> Path:
        return self.path(f".{mode}.err")

    def warning_path(self, mode: str) -> Path:
        return self.path(f".{mode}.warn")

    def defines(self) -> dict[str, str]:
        out: dict[str, str] = {}
        path = self.path(".defines")
        if path.exists():
            for line in path.read_text().splitlines():
                line = line.split("#", 1)[0].strip()
                if line:
                    name, eq, value = line.partition("=")
                    out[name.strip()] = value.strip() if eq else "1"
        return out

    def include_dirs(self) -> list[str]:
        path = self.path(".includes")
        if not path.exists():
            return []
        return [line.strip() for line in path.read_text().splitlines()
                if line.strip() and not line.lstrip().startswith("#")]


def cases() -> list[Case]:
    found = []
    for okl in sorted(GOLDEN_DIR.glob("*/*.okl")):
        feature = okl.parent.name
        if feature not in OTHER_CORPORA:
            found.append(Case(feature, okl.stem))
    return found


@dataclass(frozen=True)
class Result:
    """One mode's translation of a case: output text or the rendered errors."""

    output: str | None
    errors: str | None
    warnings: str
    launcher: str | None


@contextlib.contextmanager
def _inside(folder: Path):
    with _CWD_LOCK:
        old = os.getcwd()
        os.chdir(folder)
        try:
            yield
        finally:
            os.chdir(old)


def _render(diagnostics) -> str:
    return "".join(d.render() + "\n" for d in diagnostics)


@functools.cache
def translate_case(case: Case, mode: str) -> Result:
    from okl.errors import TranslationError
    from okl.translation import translate

    source = case.source.read_text(encoding="utf-8")
    with _inside(case.folder):
        try:
            result = translate(source, mode, defines=case.defines(),
                               include_dirs=case.include_dirs(), filename=case.source.name,
                               check_bounds=case.feature == CHECKED)
        except TranslationError as e:
            return Result(None, _render(e.diagnostics) or f"error: {e}\n", "", None)
    return Result(result.source, None, _render(result.diagnostics), result.launcher())


def expected_outputs() -> list[tuple[Case, str, Path]]:
    """Every expected backend output file of the corpus: (case, mode, path)."""
    out = []
    for case in cases():
        for mode in MODES:
            path = case.output_path(mode)
            if path.exists():
                out.append((case, mode, path))
    return out
