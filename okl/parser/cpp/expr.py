"""The value of a ``#if`` condition, for okl's in-process preprocessor (okl/parser/cpp/inline.py).

The condition arrives with ``defined`` resolved and macros expanded; what is left is a C
integer constant expression over numbers, character constants and identifiers (each worth 0,
as C says).  It is evaluated in ``intmax_t`` (64-bit, signed), short-circuiting ``&&``,
``||`` and ``?:`` so that ``0 && 1 / 0`` is fine, as in cpp.

Whatever cpp would answer with a diagnostic, or with arithmetic this module does not model
exactly (unsigned operands, overflow, division by zero, shifts out of range, a comma, multi-
character or wide character constants, binary literals), raises :class:`Unsupported`: the
caller then leaves the file to cpp, whose messages okl reports as they are.
"""

from __future__ import annotations

import re

_MIN, _MAX = -(1 << 63), (1 << 63) - 1
_INTEGER = r"(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)([lL]{0,2})\Z"  # compiled by re at first use
_ESCAPES = {"n": 10, "t": 9, "r": 13, "0": 0, "\\": 92, "'": 39, '"': 34, "a": 7, "b": 8,
            "f": 12, "v": 11, "?": 63}
#: binary operators by precedence, loosest first (``?:``, ``&&``, ``||`` apart)
_LEVELS = (("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="), ("<<", ">>"),
           ("+", "-"), ("*", "/", "%"))
_PRECEDENCE = {op: i for i, ops in enumerate(_LEVELS) for op in ops}


class Unsupported(Exception):
    """cpp, not this module, should answer for this input."""


def evaluate(tokens: list[tuple[str, str]]) -> int:
    """The value of ``tokens`` ((kind, text) pairs: kind ``id``, ``num``, ``chr``, ``punct``,
    ``str`` or ``other``) as a ``#if`` condition."""
    if not tokens:
        raise Unsupported("#if with no expression")
    parser = _Parser(tokens)
    value = parser.conditional(True)
    if parser.pos != len(tokens):
        raise Unsupported("tokens after the expression")
    return value


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos][1] if self.pos < len(self.tokens) else None

    def take(self, text: str) -> None:
        if self.peek() != text:
            raise Unsupported(f"expected {text!r}")
        self.pos += 1

    def conditional(self, live: bool) -> int:
        cond = self.logical_or(live)
        if self.peek() != "?":
            return cond
        self.pos += 1
        yes = self.conditional(live and cond != 0)
        self.take(":")
        no = self.conditional(live and cond == 0)
        return yes if cond else no

    def logical_or(self, live: bool) -> int:
        value = self.logical_and(live)
        while self.peek() == "||":
            self.pos += 1
            right = self.logical_and(live and value == 0)
            value = int(value != 0 or right != 0)
        return value

    def logical_and(self, live: bool) -> int:
        value = self.binary(0, live)
        while self.peek() == "&&":
            self.pos += 1
            right = self.binary(0, live and value != 0)
            value = int(value != 0 and right != 0)
        return value

    def binary(self, level: int, live: bool) -> int:
        if level == len(_LEVELS):
            return self.unary(live)
        value = self.binary(level + 1, live)
        while (op := self.peek()) is not None and _PRECEDENCE.get(op) == level:
            self.pos += 1
            right = self.binary(level + 1, live)
            value = _apply(op, value, right) if live else 0
        return value

    def unary(self, live: bool) -> int:
        text = self.peek()
        if text in ("+", "-", "~", "!"):
            self.pos += 1
            value = self.unary(live)
            if text == "-":
                return _checked(-value)
            if text == "~":
                return ~value
            return int(value == 0) if text == "!" else value
        if text == "(":
            self.pos += 1
            value = self.conditional(live)
            self.take(")")
            return value
        if text is None:
            raise Unsupported("expression ends early")
        kind = self.tokens[self.pos][0]
        self.pos += 1
        if kind == "id":
            return 0
        if kind == "num":
            return _integer(text)
        if kind == "chr":
            return _character(text)
        raise Unsupported(f"{text!r} in #if")


def _apply(op: str, a: int, b: int) -> int:
    if op in ("/", "%"):
        if b == 0 or (a == _MIN and b == -1):
            raise Unsupported("division by zero or overflow")
        q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)  # C truncates toward zero
        return q if op == "/" else a - q * b
    if op in ("<<", ">>"):
        if not 0 <= b < 64 or a < 0:
            raise Unsupported("shift out of range")
        return _checked(a << b) if op == "<<" else a >> b
    if op == "+":
        return _checked(a + b)
    if op == "-":
        return _checked(a - b)
    if op == "*":
        return _checked(a * b)
    return {"|": a | b, "^": a ^ b, "&": a & b, "==": int(a == b), "!=": int(a != b),
            "<": int(a < b), ">": int(a > b), "<=": int(a <= b), ">=": int(a >= b)}[op]


def _checked(value: int) -> int:
    if not _MIN <= value <= _MAX:
        raise Unsupported("overflow")
    return value


def _integer(text: str) -> int:
    m = re.match(_INTEGER, text)
    if m is None:  # floats, unsigned suffixes, binary literals, malformed numbers
        raise Unsupported(f"number {text!r}")
    digits = m.group(1)
    base = 16 if digits[:2] in ("0x", "0X") else 8 if digits.startswith("0") else 10
    return _checked(int(digits, base))


def _character(text: str) -> int:
    body = text[1:-1]
    if text[0] != "'" or not body:
        raise Unsupported("wide or empty character constant")
    if len(body) == 1 and body != "\\":
        code = ord(body)
    elif len(body) == 2 and body[0] == "\\" and body[1] in _ESCAPES:
        code = _ESCAPES[body[1]]
    else:
        raise Unsupported("multi-character or numeric-escape character constant")
    if code > 127:
        raise Unsupported("non-ASCII character constant")
    return code
