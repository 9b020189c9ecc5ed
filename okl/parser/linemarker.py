"""File names inside ``#line N "file"`` directives and cpp's ``# N "file"`` markers.

okl writes file names into text that a preprocessor or compiler reads again (the ``#line``
before cpp runs, the ``#line`` directives of generated code), so a name must be spelled as a
C string literal: a newline, quote or backslash in it would otherwise end the directive and
let the rest of the name inject directives of its own.  cpp spells names the same way in its
markers (``\\n``, ``\\"``, ``\\\\``, octal for other control characters), and
:func:`unescape` reads them back.
"""

from __future__ import annotations

import re

_SIMPLE = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_ESCAPE = re.compile(r'[\\"\x00-\x1f\x7f]')
_UNESCAPE = r"\\(?:([0-7]{1,3})|x([0-9a-fA-F]+)|(.))"  # compiled by re where a name has one
_NAMED = {"n": "\n", "r": "\r", "t": "\t", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


def quote(name: str) -> str:
    """``name`` as a C string literal, quotes included."""
    return '"' + _ESCAPE.sub(lambda m: _SIMPLE.get(m.group(0), f"\\{ord(m.group(0)):03o}"),
                             name) + '"'


def line_directive(line: int, name: str) -> str:
    return f"#line {line} {quote(name)}"


def unescape(body: str) -> str:
    """The name spelled by the inside of a C string literal (as cpp writes it in markers)."""
    def one(m: re.Match) -> str:
        octal, hexa, char = m.groups()
        if octal:
            return chr(int(octal, 8))
        if hexa:
            return chr(int(hexa, 16) & 0xFF)
        return _NAMED.get(char, char)

    return re.sub(_UNESCAPE, one, body, flags=re.S) if "\\" in body else body
