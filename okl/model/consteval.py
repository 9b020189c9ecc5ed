"""Compile-time evaluation of integer C expressions (after macro expansion).

Used wherever OKL needs a number at translation time: @shared sizes, inner extents for
launch bounds and CPU @exclusive arrays, attribute indices, empty-loop detection.
"""

from __future__ import annotations

import operator
import re

from pycparser import c_ast

from .basetypes import INTEGER_TYPES, canonical_base, integer_bits

_INT = re.compile(r"^(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9]\d*)([uUlL]*)$")


def evaluate(node: c_ast.Node | None, env: dict[str, int] | None = None) -> int | None:
    """The integer value of ``node`` or None when it is not a compile-time constant."""
    try:
        return _eval(node, env or {})
    except (ZeroDivisionError, ValueError, OverflowError, TypeError, RecursionError):
        return None


#: literal text -> its integer value (None: not an integer literal).  The same few literals
#: (0, 1, the sizes) are read thousands of times per translation: the regex was a hundredth
#: of it.
_LITERALS: dict[str, int | None] = {}
_UNREAD = object()


def _literal(value: str) -> int | None:
    m = _INT.match(value)
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


def _eval(n, env):
    if isinstance(n, c_ast.Constant):
        if n.type == "char":
            body = n.value[1:-1]
            return ord(body.encode().decode("unicode_escape")) if body else None
        value = _LITERALS.get(n.value, _UNREAD)
        if value is _UNREAD:
            value = _literal(n.value)
            if len(_LITERALS) >= 4096:  # a file of many distinct literals: start over
                _LITERALS.clear()
            _LITERALS[n.value] = value
        return value
    if isinstance(n, c_ast.ID):
        return env.get(n.name) if n.name not in ("true", "false") else int(n.name == "true")
    if isinstance(n, c_ast.UnaryOp):
        v = _eval(n.expr, env)
        if v is None:
            return None
        op = _UNARY.get(n.op)
        return None if op is None else op(v)
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


def _cdiv(a: int, b: int) -> int:
    """C's integer division: the quotient truncated toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _binary(op: str, a: int, b: int) -> int | None:
    if op == "/":
        return _cdiv(a, b)
    if op == "%":
        return a - b * _cdiv(a, b)
    fn = _BINARY.get(op)
    return None if fn is None else fn(a, b)


def _shift(shift):
    return lambda a, b: shift(a, b) if 0 <= b < 128 else None


# One function per operator (the table of all results, computed for every operation, cost
# a tenth of the trip-count evaluations that launch plans and loop checks make).
_UNARY = {"-": operator.neg, "+": operator.pos, "~": operator.invert,
          "!": lambda v: int(not v)}
_BINARY = {"+": operator.add, "-": operator.sub, "*": operator.mul,
           "<<": _shift(operator.lshift), ">>": _shift(operator.rshift),
           "&": operator.and_, "|": operator.or_, "^": operator.xor,
           "<": lambda a, b: int(a < b), "<=": lambda a, b: int(a <= b),
           ">": lambda a, b: int(a > b), ">=": lambda a, b: int(a >= b),
           "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b),
           "&&": lambda a, b: int(bool(a and b)), "||": lambda a, b: int(bool(a or b))}


#: (bits, signed) of C's int, the type every narrower integer promotes to
_INT_T = (32, True)


def integer_type(n: c_ast.Node | None) -> tuple[int, bool] | None:
    """(bits, signed) of an integer constant expression as C (LP64) types it, or None when
    okl cannot tell (a typedef in a cast, a float).  The trip count of a loop compares its
    start and bound in this type: ``for (int i = -1; i < 5u; ...)`` compares as unsigned
    and never runs, where untyped arithmetic would count 6 iterations."""
    try:
        return _type(n)
    except RecursionError:
        return None


def _type(n: c_ast.Node | None) -> tuple[int, bool] | None:
    if isinstance(n, c_ast.Constant):
        if n.type == "char":
            return _INT_T
        m = _INT.match(n.value)
        if not m:
            return None
        suffix, value = m.group(2).lower(), evaluate(n)
        decimal = not m.group(1).startswith("0") or m.group(1) == "0"
        bits = 64 if "l" in suffix or value is None or value >= 1 << 32 or \
            (decimal and "u" not in suffix and value >= 1 << 31) else 32
        signed = "u" not in suffix and (value is None or value < 1 << (bits - 1))
        return bits, signed
    if isinstance(n, c_ast.ID):
        return _INT_T
    if isinstance(n, c_ast.Cast):
        t = n.to_type.type
        if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType):
            base = canonical_base(t.type.names)
            return promote(integer_bits(base)) if base in INTEGER_TYPES else None
        return None
    if isinstance(n, c_ast.UnaryOp):
        if n.op == "sizeof":
            return 64, False
        return _INT_T if n.op == "!" else promote(_type(n.expr))
    if isinstance(n, c_ast.BinaryOp):
        if n.op in ("<", "<=", ">", ">=", "==", "!=", "&&", "||"):
            return _INT_T
        left = promote(_type(n.left))
        if n.op in ("<<", ">>"):
            return left
        return common(left, promote(_type(n.right)))
    if isinstance(n, c_ast.TernaryOp):
        return common(promote(_type(n.iftrue)), promote(_type(n.iffalse)))
    return None


def promote(t: tuple[int, bool] | None) -> tuple[int, bool] | None:
    return t if t is None or t[0] >= 32 else _INT_T


def common(a: tuple[int, bool] | None, b: tuple[int, bool] | None) -> tuple[int, bool] | None:
    """C's usual arithmetic conversions on promoted integer types (LP64)."""
    if a is None or b is None:
        return None
    if a[0] != b[0]:  # the wider type holds every value of the narrower one
        return a if a[0] > b[0] else b
    return a if a[1] == b[1] else (a[0], False)


def convert(value: int, t: tuple[int, bool]) -> int:
    """``value`` converted to the integer type ``t`` (modulo 2**bits, as gcc does)."""
    bits, signed = t
    value &= (1 << bits) - 1
    return value - (1 << bits) if signed and value >> (bits - 1) else value
