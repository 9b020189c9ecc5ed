"""pycparser bridge: parse attribute-free C text, turning parse errors into diagnostics.

The text handed to pycparser carries no line markers, so every node's coord is a
(line, column) of the expanded text; :meth:`Expanded.locate` maps it to the original file.
A small prelude declares the fixed-width and size types that kernels use without including
a header (device compilers know them); its nodes carry the file name ``PRELUDE``.
"""

from __future__ import annotations

import re

from pycparser import c_ast, c_parser

from ..errors import Diagnostics, TranslationError
from .preprocess import Expanded

PRELUDE = "<okl-prelude>"
PRELUDE_TYPES = {
    "size_t": "unsigned long", "ptrdiff_t": "long", "intptr_t": "long",
    "uintptr_t": "unsigned long", "int8_t": "signed char", "uint8_t": "unsigned char",
    "int16_t": "short", "uint16_t": "unsigned short", "int32_t": "int",
    "uint32_t": "unsigned int", "int64_t": "long long", "uint64_t": "unsigned long long",
    "bool": "_Bool", "uint": "unsigned int", "half": "unsigned short",
}
_PRELUDE_TEXT = "".join(f"typedef {c} {n};" for n, c in PRELUDE_TYPES.items())
_ERROR = re.compile(r"^(?:[^:]*):(\d+):(\d+): (.*)$", re.S)

_parser: c_parser.CParser | None = None


def parser() -> c_parser.CParser:
    """One shared parser: building pycparser's tables is the slow part."""
    global _parser
    if _parser is None:
        _parser = c_parser.CParser()
    return _parser


def parse(text: str, expanded: Expanded, diags: Diagnostics) -> c_ast.FileAST:
    source = f'# 1 "{PRELUDE}"\n{_PRELUDE_TEXT}\n# 1 "okl"\n{text}'
    try:
        return parser().parse(source, filename="okl")
    except c_parser.ParseError as e:
        _report(str(e), expanded, diags)
    except RecursionError:
        diags.error("source nests too deeply for the parser", expanded.locate(1, 1))
    diags.raise_if_errors()
    raise TranslationError("parse failed")  # unreachable: _report always records an error


def _report(message: str, expanded: Expanded, diags: Diagnostics) -> None:
    m = _ERROR.match(message)
    if not m:
        diags.error(f"syntax error: {message}", expanded.locate(1, 1))
        return
    line, col, what = int(m.group(1)), int(m.group(2)), m.group(3)
    what = what.replace("before: ", "before '", 1) + "'" if what.startswith("before: ") else what
    diags.error(f"syntax error {what}".replace("syntax error before", "syntax error before", 1),
                expanded.locate(line, col),
                hint="check for a missing ';', ')' or '}' just before this point")


def parse_expression(text: str, typedefs=()) -> c_ast.Node:
    """Parse a standalone C expression (an attribute argument such as a @dim size)."""
    decls = "".join(f"typedef int {t};" for t in typedefs)
    ast = parser().parse(f"{decls} void __okl_expr(void) {{ ({text}); }}")
    return ast.ext[-1].body.block_items[0]
