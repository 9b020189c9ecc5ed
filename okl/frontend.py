"""The front end: OKL text to a validated :class:`~okl.model.kernel.Program`.

preprocess -> attributes -> pycparser -> attach -> tile, dim -> model + validation.
Every error of the file is reported at once as a :class:`TranslationError`.
"""

from __future__ import annotations

import os

from pycparser import c_ast

from .errors import Diagnostics
from .model.attach import attach
from .model.build import ModelBuilder
from .model.kernel import Program
from .model.types import TypeTable
from .parser.attributes import extract
from .parser.cparse import PRELUDE, parse
from .parser.preprocess import preprocess
from .transforms.dim import apply_dims
from .transforms.tile import expand_tiles

MODES = ("serial", "openmp", "opencl", "cuda", "hip")


def analyze(source: str, filename: str = "<input>", *, mode: str = "serial",
            defines: dict | None = None, include_dirs=()) -> Program:
    """Parse and validate ``source``; raise TranslationError with all diagnostics on error."""
    diags = Diagnostics()
    expanded = preprocess(source, filename, mode=mode, defines=defines,
                          include_dirs=include_dirs)
    diags.items.extend(expanded.warnings)
    text, attrs = extract(expanded, diags)
    ast = parse(text, expanded, diags)
    amap = attach(ast, attrs)
    types = TypeTable()
    for ext in ast.ext:
        if ext.coord is not None and ext.coord.file == PRELUDE:
            continue
        if isinstance(ext, c_ast.Typedef):
            types.add_typedef(ext)
        elif isinstance(ext, c_ast.Decl):
            types.add_decl(ext)
    expand_tiles(ast, amap, types, expanded, diags)
    apply_dims(ast, amap, list(types.typedefs), expanded, diags)
    program = ModelBuilder(ast, amap, types, expanded, diags).build(attrs)
    diags.raise_if_errors()
    program.warnings = diags.warnings
    return program


def analyze_file(path: str | os.PathLike, **kw) -> Program:
    with open(path, encoding="utf-8") as f:
        return analyze(f.read(), os.fspath(path), **kw)
