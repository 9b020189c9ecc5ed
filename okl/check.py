"""``oklc check``: every diagnostic that translating a file would give, in every mode.

A file can be fine for the CPU and wrong for a GPU (``@atomic x *= 2`` has no GPU lowering;
a macro may be defined for one ``OKL_MODE`` only), so checking one mode is not enough: the
file is translated for each mode asked for, and the diagnostics are merged.  One that only
some modes give says which, e.g. ``... [cuda, hip]``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from .errors import Diagnostic, OKLError, SourceLoc
from .modes import MODES
from .parser.source import read_source


@dataclass
class CheckResult:
    file: str
    kernels: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    def to_json(self) -> dict:
        """The file's result as ``oklc check`` prints it in a machine format; its
        diagnostics go with every other command's, to the format's document on stderr."""
        return {"file": self.file, "ok": not self.errors, "kernels": self.kernels,
                "errors": len(self.errors), "warnings": len(self.warnings)}


def check_source(source: str | bytes, filename: str, modes: Iterable[str] = MODES, *,
                 defines: dict | None = None, include_dirs=()) -> CheckResult:
    """Translate ``source`` for every mode in ``modes``; merge what they report."""
    from .translation import translate

    modes = list(modes)
    seen: dict[str, tuple[Diagnostic, list[str]]] = {}
    kernels: list[str] = []
    for mode in modes:
        try:
            result = translate(source, mode, defines=defines, include_dirs=include_dirs,
                               filename=filename)
            found = result.diagnostics
            kernels = kernels or [k.name for k in result.kernels]
        except OKLError as e:
            found = e.diagnostics or [Diagnostic("error", str(e), SourceLoc(filename, 1, 1))]
        for d in found:
            seen.setdefault(d.render(), (d, []))[1].append(mode)
    out = []
    for d, where in seen.values():
        if len(where) < len(modes):
            d = replace(d, message=f"{d.message} [{', '.join(where)}]")
        out.append(d)
    out.sort(key=_position)
    return CheckResult(filename, kernels, out)


def check_file(path: str, modes: Iterable[str] = MODES, **kw) -> CheckResult:
    try:
        source = read_source(path)
    except OKLError as e:  # SourceFileError: PATH: error: cannot read: REASON
        return CheckResult(path, [], e.diagnostics or [Diagnostic("error", str(e))])
    return check_source(source, path, modes, **kw)


def okl_files(paths: Iterable[str], recursive: bool) -> list[str]:
    """The files to check: each path itself, or with ``recursive`` every ``*.okl`` below a
    directory (sorted, so reports are stable)."""
    out = []
    for p in paths:
        if recursive and os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                out += [os.path.join(root, f) for f in sorted(files) if f.endswith(".okl")]
        else:
            out.append(p)
    return out


def kind_of(d: Diagnostic) -> str:
    """A diagnostic's message without its particulars (quoted names, numbers, modes), to
    count errors by kind over many files.  A size in bytes stays: it is a fact about a type
    the message names unquoted (``double3 in 32 bytes``), the same in every file, and
    without it the kind would read ``double3 in N bytes``."""
    text = re.sub(r" \[[a-z, ]+\]$", "", d.message)
    text = re.sub(r"'[^']*'", "'…'", text)
    return re.sub(r"\b\d+\b(?! bytes\b)", "N", text)


def _position(d: Diagnostic) -> tuple:
    return ("", 0, 0) if d.loc is None else (d.loc.file, d.loc.line, d.loc.col)

