"""Bytes of a declared array, for the limits okl states on @shared and @exclusive storage.

Counted from the declaration's constant sizes and its element type as C on an LP64 host
sizes it (every host okl builds CPU code for); a type okl does not size here (a struct, a
vector) counts as 16 bytes an element, which errs towards the limit.  Used by the CPU
lowering (large arrays off the stack) and the GPU checks (per-thread memory).
"""

from __future__ import annotations

from pycparser import c_ast

from .consteval import evaluate

_SIZES = {"char": 1, "bool": 1, "_Bool": 1, "short": 2, "half": 2, "int": 4, "float": 4,
          "long": 8, "double": 8, "size_t": 8, "ptrdiff_t": 8, "int8_t": 1, "uint8_t": 1,
          "int16_t": 2, "uint16_t": 2, "int32_t": 4, "uint32_t": 4, "int64_t": 8,
          "uint64_t": 8}
_UNKNOWN = 16


def array_bytes(decl: c_ast.Decl) -> int | None:
    """Bytes of an array declaration with constant sizes (None for anything else)."""
    t, count = decl.type, 1
    if not isinstance(t, c_ast.ArrayDecl):
        return None
    while isinstance(t, c_ast.ArrayDecl):
        n = evaluate(t.dim) if t.dim is not None else None
        if n is None or n < 0:
            return None
        count *= n
        t = t.type
    return count * element_bytes(t)


def element_bytes(t: c_ast.Node) -> int:
    if isinstance(t, c_ast.PtrDecl):
        return 8
    inner = getattr(t, "type", None)
    if isinstance(inner, c_ast.IdentifierType):
        names = [n for n in inner.names if n not in ("signed", "unsigned", "const",
                                                      "volatile")]
        if not names:  # plain "unsigned"
            return 4
        if names.count("long") == 2 or names == ["long", "int"]:
            return 8
        if len(names) == 1 or (len(names) == 2 and names[1] == "int"):
            return _SIZES.get(names[0], _UNKNOWN)
    return _UNKNOWN
