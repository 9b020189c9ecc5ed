"""Parentheses around a parse error at a ';': stray semicolons inside a parenthesized
expression, and a '(' that is never closed.

nekRS writes sums over several lines with a ';' at the end of each line inside the
parentheses, ``d[i] = w * ((a + b);  +(c + d);  +(e + f));``.  OCCA pairs brackets over the
whole file first (``tokenContext_t::findPairs``), finds the end of a statement with
``getNextOperator``, which jumps over bracket pairs, and its expression parser
(``expressionParser::applyOperator``) drops a ';' operator without a word; so it reads
``w * ((a + b) + (c + d) + (e + f))``, which is also the only reading under which the
parentheses balance.  okl does the same, with a warning.

A '(' still open when its statement's braces close has no evident ')' position
(``(a + b * c;``), and OCCA rejects it ("Could not find a closing '('"): it stays an error,
reported at the '(' that is left open.
"""

from __future__ import annotations

from ..record import record
from .attributes import Token

_OPEN = {"(", "[", "{"}
_CLOSE = {")", "]", "}"}


@record
class StrayGroup:
    """A '(' ... ')' of one expression holding ';' tokens that end nothing."""

    open: Token
    close: Token
    semicolons: list[Token]


def _open_paren_at(tokens: list[Token], k: int) -> int | None:
    """Index of the innermost bracket open at token k when it is a '(' that does not start
    a for-header (whose ';' are C's own); None otherwise."""
    stack: list[int] = []
    for i in range(k):
        t = tokens[i].text
        if t in _OPEN:
            stack.append(i)
        elif t in _CLOSE and stack:
            stack.pop()
    if not stack or tokens[stack[-1]].text != "(":
        return None
    i = stack[-1]
    if i > 0 and tokens[i - 1].text == "for":
        return None
    return i


def stray_semicolons(tokens: list[Token], k: int) -> StrayGroup | None:
    """The group whose ';' token k sits in, when the same statement closes that '(' later
    with no brace in between."""
    if tokens[k].text != ";":
        return None
    start = _open_paren_at(tokens, k)
    if start is None:
        return None
    depth = 0
    inside: list[Token] = []
    for t in tokens[start:]:
        if t.text in ("(", "["):
            depth += 1
        elif t.text in (")", "]"):
            depth -= 1
            if depth == 0:
                return StrayGroup(tokens[start], t, inside) if t.text == ")" else None
        elif t.text in ("{", "}"):
            return None
        elif t.text == ";":
            inside.append(t)
    return None


def unclosed_paren(tokens: list[Token], k: int) -> Token | None:
    """The '(' open at the ';' token k that no ')' closes before the next brace."""
    if tokens[k].text != ";":
        return None
    start = _open_paren_at(tokens, k)
    if start is None or stray_semicolons(tokens, k) is not None:
        return None
    return tokens[start]
