"""The front end: OKL text to a validated :class:`~okl.model.kernel.Program`.

preprocess -> attributes -> pycparser -> attach -> tile, dim -> model + validation.
Every error of the file is reported at once as a :class:`TranslationError`.
"""

from __future__ import annotations

import os
import time

from pycparser import c_ast

from .errors import Diagnostic, Diagnostics, SourceLoc, TranslationError
from .model.attach import attach
from .model.build import ModelBuilder
from .model.dim import apply_dims
from .model.kernel import Program
from .model.tile import expand_tiles
from .model.types import TypeTable
from .parser.attributes import extract_tokens
from .parser.cparse import parse
from .parser.cpp.preprocess import preprocess
from .parser.cxx import lower_cxx
from .parser.source import STRING_NAME, decode, read_source
from .parser.text_limits import check_bounds
from .recursion import deep_recursion


def analyze(source: str | bytes, filename: str = STRING_NAME, *, mode: str = "serial",
            defines: dict | None = None, include_dirs=(),
            timings: dict[str, float] | None = None) -> Program:
    """Parse and validate ``source``; raise TranslationError with all diagnostics on error.

    ``source`` as bytes is decoded as a file would be (okl.parser.source: UTF-8, else
    Latin-1 with a warning).
    ``timings``, when given, receives the seconds spent per stage: preprocess, attributes,
    parse, model (benchmarks/frontend_time.py)."""
    try:
        # the same room for every pass whatever other threads translate (okl.recursion)
        with deep_recursion():
            return _analyze(source, filename, mode, defines, include_dirs, Clock(timings))
    except RecursionError:  # a recursive pass met an expression thousands of levels deep
        raise TranslationError(diagnostics=[Diagnostic(
            "error", "an expression nests too deeply for okl (thousands of levels)",
            SourceLoc(filename, 1, 1),
            hint="split it into several statements with temporary variables")]) from None


def _analyze(source: str | bytes, filename: str, mode: str, defines, include_dirs,
             clock: Clock) -> Program:
    diags = Diagnostics()
    if isinstance(source, bytes):
        source, not_utf8 = decode(source, filename)
        if not_utf8 is not None:
            diags.items.append(not_utf8)
    expanded = preprocess(source, filename, mode=mode, defines=defines,
                          include_dirs=include_dirs)
    check_bounds(expanded)
    clock.lap("preprocess")
    diags.items.extend(expanded.warnings)
    blanked, attrs, tokens = extract_tokens(expanded, diags)
    errors = len(diags.errors)
    text = lower_cxx(blanked, expanded, diags)
    if len(diags.errors) > errors:  # C++ that C cannot parse: its own error, not the parser's
        diags.raise_if_errors()
    clock.lap("attributes")
    # the attribute scan's tokens are the parser's where lower_cxx changed nothing
    ast = parse(text, expanded, diags, tokens if text is blanked else None)
    clock.lap("parse")
    amap = attach(ast, attrs)
    types = TypeTable()
    for ext in ast.ext:
        if isinstance(ext, c_ast.Typedef):
            types.add_typedef(ext)
        elif isinstance(ext, c_ast.Decl):
            types.add_decl(ext)
    expand_tiles(ast, amap, types, expanded, diags)
    apply_dims(ast, amap, list(types.typedefs), expanded, diags)
    program = ModelBuilder(ast, amap, types, expanded, diags).build(attrs)
    clock.lap("model")
    diags.raise_if_errors()
    program.warnings = diags.warnings
    return program


class Clock:
    """Seconds per stage into ``laps`` (nothing when it is None): each lap is the time since
    the previous one, so the stages of a run add up to its total."""

    def __init__(self, laps: dict[str, float] | None) -> None:
        self.laps = laps
        self.last = time.perf_counter()

    def lap(self, stage: str) -> None:
        if self.laps is not None:
            now = time.perf_counter()
            self.laps[stage] = now - self.last
            self.last = now


def analyze_file(path: str | os.PathLike, **kw) -> Program:
    """:func:`analyze` of a file; SourceFileError (an OKLError) when it cannot be read."""
    return analyze(read_source(path), os.fspath(path), **kw)
