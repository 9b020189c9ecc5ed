"""Compile-time evaluation of integer C expressions (after macro expansion).

Used wherever OKL needs a number at translation time: @shared sizes, inner extents for
launch bounds and CPU @exclusive arrays, attribute indices, empty-loop detection.
"""

from __future__ import annotations

import re

from pycparser import c_ast

_INT = re.compile(r"^(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9]\d*)([uUlL]*)$")


def evaluate(node: c_ast.Node | None, env: dict[str, int] | None = None) -> int | None:
    """The integer value of ``node`` or None when it is not a compile-time constant."""
    try:
        return _eval(node, env or {})
    except (ZeroDivisionError, ValueError, OverflowError, TypeError, RecursionError):
        return None


def _eval(n, env):
    if isinstance(n, c_ast.Constant):
        if n.type == "char":
            body = n.value[1:-1]
            return ord(body.encode().decode("unicode_escape")) if body else None
        m = _INT.match(n.value)
        if not m:
            return None
        text = m.group(1)
        if text.startswith(("0x", "0X")):
            return int(text, 16)
        if text.startswith(("0b", "0B")):
            return int(text[2:], 2)
        if len(text) > 1 and text.startswith("0"):
            return int(text, 8)
        return int(text)
    if isinstance(n, c_ast.ID):
        return env.get(n.name) if n.name not in ("true", "false") else int(n.name == "true")
    if isinstance(n, c_ast.UnaryOp):
        v = _eval(n.expr, env)
        if v is None:
            return None
        return {"-": lambda: -v, "+": lambda: v, "~": lambda: ~v,
                "!": lambda: int(not v)}.get(n.op, lambda: None)()
    if isinstance(n, c_ast.BinaryOp):
        a = _eval(n.left, env)
        if n.op == "&&" and a == 0:
            return 0
        if n.op == "||" and a not in (None, 0):
            return 1
        b = _eval(n.right, env)
        if a is None or b is None:
            return None
        return _binary(n.op, a, b)
    if isinstance(n, c_ast.TernaryOp):
        c = _eval(n.cond, env)
        if c is None:
            return None
        return _eval(n.iftrue if c else n.iffalse, env)
    if isinstance(n, c_ast.Cast):
        v = _eval(n.expr, env)
        return v
    return None


def _binary(op: str, a: int, b: int) -> int | None:
    if op == "/":
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q
    if op == "%":
        return a - b * _binary("/", a, b)
    ops = {"+": a + b, "-": a - b, "*": a * b, "<<": a << b if 0 <= b < 128 else None,
           ">>": a >> b if 0 <= b < 128 else None, "&": a & b, "|": a | b, "^": a ^ b,
           "<": int(a < b), "<=": int(a <= b), ">": int(a > b), ">=": int(a >= b),
           "==": int(a == b), "!=": int(a != b), "&&": int(bool(a and b)),
           "||": int(bool(a or b))}
    return ops.get(op)
