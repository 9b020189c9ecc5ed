"""pycparser's lexer with a fast path for the tokens kernels are made of.

pycparser's ``CLexer`` steps over blanks one character per loop iteration and matches every
token against one regex of two dozen named alternatives (string and character literals,
every number form, error patterns) whose identifier alternative comes last, then looks the
token up among the punctuators.  That took about 45 % of the parse of a benchmark kernel
(2 of 4.7 ms for bk5.okl: 900 tokens).  Here one regex skips the blanks before a token and
matches it when it is an identifier or keyword, a punctuator, a plain decimal integer or a
plain decimal floating constant; anything else -- directives, literals with quotes, other
numbers, ``[[`` attributes, comment starts, a token after a ``#pragma`` -- is left to
``CLexer`` itself, at the same position.  (So most kernels never use CLexer's regex, which
okl.parser.pycparser_load leaves uncompiled until then.)
:meth:`FastLexer.tokens` reads the whole text so, in one loop, for the parser's token buffer
(okl.parser.cparse); ``token()`` is ``CLexer``'s and reads on where that stops (at a lexer
error).  Tokens are the same (type, value, line, column, file) as ``CLexer``'s:
tests/test_clexer.py compares both on every golden kernel.  ``CParser`` takes the lexer
class as an argument for this purpose.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import Any, cast

from pycparser import c_lexer
from pycparser.c_lexer import CLexer

#: Punctuators and their token types (pycparser's names), longest first in the regex.
PUNCTUATORS = {
    "...": "ELLIPSIS", "<<=": "LSHIFTEQUAL", ">>=": "RSHIFTEQUAL", "++": "PLUSPLUS",
    "--": "MINUSMINUS", "->": "ARROW", "&&": "LAND", "||": "LOR", "<<": "LSHIFT",
    ">>": "RSHIFT", "<=": "LE", ">=": "GE", "==": "EQ", "!=": "NE", "*=": "TIMESEQUAL",
    "/=": "DIVEQUAL", "%=": "MODEQUAL", "+=": "PLUSEQUAL", "-=": "MINUSEQUAL",
    "&=": "ANDEQUAL", "|=": "OREQUAL", "^=": "XOREQUAL", "::": "COLONCOLON", "=": "EQUALS",
    "+": "PLUS", "-": "MINUS", "*": "TIMES", "/": "DIVIDE", "%": "MOD", "|": "OR",
    "&": "AND", "~": "NOT", "^": "XOR", "!": "LNOT", "<": "LT", ">": "GT", "?": "CONDOP",
    "(": "LPAREN", ")": "RPAREN", "[": "LBRACKET", "]": "RBRACKET", "{": "LBRACE",
    "}": "RBRACE", ",": "COMMA", ".": "PERIOD", ";": "SEMI", ":": "COLON",
}

# What CLexer would read differently is excluded by lookaheads: `/` that starts a comment
# (an error there), `.` that starts a number (`.5`), `[` that starts `[[`, an identifier
# followed by a quote (L"..", u8'..'), a decimal integer followed by a suffix, a digit
# separator, a fraction or an exponent, and `0` followed by anything octal, hex or binary.
# (The identifier and integer lookaheads also refuse a shorter match by backtracking.)
# A lone `0` is an octal constant to CLexer (its octal pattern comes before the decimal one).
_SPECIAL = {"/": r"/(?![*/])", ".": r"\.(?![0-9])", "[": r"\[(?!\s*\[)"}
_PUNCT_RE = "|".join(_SPECIAL.get(p, re.escape(p))
                     for p in sorted(PUNCTUATORS, key=len, reverse=True))
# A decimal floating constant without digit separators or a C23 suffix, followed by
# nothing that could continue a number: CLexer reads the same characters as FLOAT_CONST (its
# first alternative that can start with a digit or with '.' and a digit).
_FLOAT = (r"(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?[fFlL]?"
          r"|[0-9]+[eE][-+]?[0-9]+[fFlL]?")
_FAST = re.compile(
    r"(?P<blank>[ \t\f\v\n]+)?"
    r"(?:(?P<id>[A-Za-z_$][0-9A-Za-z_$]*)(?![0-9A-Za-z_$'\"])"
    rf"|(?P<float>{_FLOAT})(?![0-9A-Za-z_$.'])"
    rf"|(?P<punct>{_PUNCT_RE})"
    r"|(?P<int>[1-9][0-9]*|0)(?![0-9A-Za-z_$.'])"
    r")?")


#: The lexer state this fast path reads and writes, and the token fields it fills, in order.
_STATE = ("_lexdata", "_pos", "_pending_tok", "_in_attribute", "_lineno", "_line_start",
          "_filename", "_keyword_map")
_FIELDS = ("type", "value", "lineno", "column", "filename")


def _fast_path_fits() -> bool:
    """Whether the installed pycparser is the one this fast path was written against.

    The fast path uses ``CLexer``'s private state, which pycparser changes between releases
    (3.0 had no ``_in_attribute`` and a four-field ``_Token``): on any other layout okl lexes
    with ``CLexer`` alone -- slower, never different.
    """
    token = getattr(c_lexer, "Token", None)
    if token is None or not dataclasses.is_dataclass(token):
        return False
    if tuple(f.name for f in dataclasses.fields(token)) != _FIELDS:
        return False
    try:
        probe = CLexer(lambda *_: None)
        probe.input("", "")
    except TypeError:  # 3.0 wanted brace and type-lookup callbacks as well
        return False
    return all(hasattr(probe, name) for name in _STATE)


#: False where the installed pycparser's lexer is laid out differently (see above).
FAST_PATH = _fast_path_fits()
_Token = getattr(c_lexer, "Token", None)


class FastLexer(CLexer):
    """``CLexer`` that reads all tokens at once, with a one-regex path for identifiers,
    punctuators and plain integers."""

    # CLexer's state that this class reads and writes, typed for the checker (pycparser
    # leaves their types to inference, which cannot settle them here)
    error_func: Callable[..., Any]
    _pos: int
    _lineno: int
    _line_start: int

    def tokens(self, known: Sequence[Sequence] | None = None) -> list:
        """The tokens that ``token()`` would return from here on, up to and with the final
        None; or, where the lexer reports an error, the tokens before it, with the lexer
        left where it was before that token: ``token()`` reads on from there and reports
        the error when the parser gets there, as it would have without reading ahead.
        (The parser called the lexer once per token through two calls of its token buffer:
        a fifth of the parse.)  Empty where ``FAST_PATH`` is off.

        ``known``: the text's tokens as okl.parser.attributes.tokenize found them (kind,
        text, offset, line, column), where the text is the one they were read from with
        some tokens blanked (attributes) or changed, never the blanks between them: most
        are taken as they are instead of matching each again (see :meth:`_known`)."""
        out: list = []
        if not FAST_PATH:
            return out
        report, self.error_func = self.error_func, _stop
        try:
            if known is not None and self._known(out, known):
                return out
            self._read(out)
            return out
        finally:
            self.error_func = report

    def _known(self, out: list, known: Sequence[Sequence]) -> bool:
        """Read the text through ``known``: each token still in the text (a blanked one is
        not) whose kind and neighbours leave no doubt that ``_read`` would read the same --
        an ASCII identifier or keyword, a punctuator, a plain decimal integer or floating
        constant -- is appended with its line and column; any other is read by ``CLexer``
        from its offset (with what follows it, while a known token is cut or CLexer is
        inside a pragma or an attribute).  True when done (the final None, or an error ahead);
        False to let ``_read`` go on from where this left the lexer: at the end of
        ``known``, or where CLexer's line count no longer agrees with the text's (a
        ``#line`` directive).  Matching a token costs as much as all of this (about 4,000
        instructions a match): the tokens of the attribute scan are read once, not twice.
        Only where the text is the whole input, from its start, with no blank other than
        CLexer's (space, tab, newline, form feed, vertical tab)."""
        text = self._lexdata
        if self._pos or self._lineno != 1 or self._line_start or \
                self._pending_tok is not None or self._in_attribute or _ODD_BLANK.search(text):
            return False
        append, keywords, filename = out.append, self._keyword_map, self._filename
        punctuators, special, end_text = PUNCTUATORS, _KNOWN_SPECIAL, len(text)
        make = _Token
        assert make is not None  # FAST_PATH
        pos = 0  # the text before this is read
        line, line_start = 1, 0  # of the last token read
        k, count = 0, len(known)
        while k < count:
            kind, value, start, tline, col = known[k]
            k += 1
            if start < pos:
                continue  # read with the token before
            end = start + len(value)
            tok_type = None
            if not text.startswith(value, start):
                if text[start:end].isspace():
                    continue  # blanked
                kind = ""  # changed otherwise: CLexer's
            line, line_start = tline, start - col + 1
            after = text[end] if end < end_text else ""
            if kind == "id":
                if after not in _AFTER_NAME and value.isascii():
                    tok_type = keywords.get(value, "ID")
            elif kind == "op":
                tok_type = punctuators.get(value)
                if tok_type is not None and value in special and special[value](text, end):
                    tok_type = None
            elif kind == "num" and after not in _AFTER_NUMBER and value.isascii():
                if value.isdigit():
                    if value[0] != "0":
                        tok_type = "INT_CONST_DEC"
                    elif value == "0":
                        tok_type = "INT_CONST_OCT"
                elif _FLOAT_WHOLE.match(value):
                    tok_type = "FLOAT_CONST"
            if tok_type is not None:
                append(make(tok_type, value, line, col, filename))
                pos = end
                continue
            # CLexer's, from this token's start, until it has read past the known tokens it
            # reached (one it cut -- `1.0x`, a directive line -- is read on by CLexer)
            self._pos, self._lineno, self._line_start = start, line, line_start
            limit = end
            while True:
                state = [getattr(self, name) for name in _STATE]
                try:
                    tok = CLexer.token(self)
                except _Stop:
                    for name, value in zip(_STATE, state, strict=True):
                        setattr(self, name, value)
                    return True
                append(tok)
                if tok is None:
                    return True
                if self._pending_tok is not None or self._in_attribute:
                    continue
                pos = self._pos
                while k < count and known[k][2] < pos:
                    limit = max(limit, known[k][2] + len(known[k][1]))
                    k += 1
                if pos >= limit:
                    break
            # CLexer's line count must still be the text's (no #line directive)
            nl = text.rfind("\n", 0, pos)
            if self._line_start != nl + 1 or self._lineno != line + text.count("\n", start, pos):
                return False
            line, line_start = self._lineno, self._line_start
        self._pos, self._lineno, self._line_start = pos, line, line_start
        return False

    def _read(self, out: list) -> None:
        """Read on from where the lexer is (see :meth:`tokens`), one match per token."""
        append, keywords = out.append, self._keyword_map
        # _FAST matches everywhere (every part of it is optional)
        fast = cast(Callable[[str, int], "re.Match[str]"], _FAST.match)
        make = _Token
        assert make is not None  # FAST_PATH
        text, pos, lineno, line_start = self._lexdata, self._pos, self._lineno, self._line_start
        slow = self._pending_tok is not None or self._in_attribute  # CLexer's to finish
        while True:
            if not slow:
                m = fast(text, pos)
                blank = m.group("blank")
                if blank:
                    lines = blank.count("\n")
                    if lines:
                        lineno += lines
                        line_start = pos + blank.rfind("\n") + 1
                kind = m.lastgroup
                pos = m.end()
                if kind is not None and kind != "blank":
                    value = m.group(kind)
                    if kind == "id":
                        tok_type = keywords.get(value, "ID")
                    elif kind == "punct":
                        tok_type = PUNCTUATORS[value]
                    elif kind == "float":
                        tok_type = "FLOAT_CONST"
                    else:
                        tok_type = "INT_CONST_OCT" if value == "0" else "INT_CONST_DEC"
                    append(make(tok_type, value, lineno, m.start(kind) - line_start + 1,
                                self._filename))
                    continue
            # anything else is CLexer's, from where the blanks end
            self._pos, self._lineno, self._line_start = pos, lineno, line_start
            state = [getattr(self, name) for name in _STATE]
            try:
                tok = super().token()
            except _Stop:
                for name, value in zip(_STATE, state, strict=True):
                    setattr(self, name, value)
                return
            append(tok)
            if tok is None:
                return
            pos, lineno, line_start = self._pos, self._lineno, self._line_start
            slow = self._pending_tok is not None or self._in_attribute


#: a blank that CLexer does not skip as one (a carriage return, a Unicode space): the
#: attribute scan's tokens are not used on such a text
_ODD_BLANK = re.compile(r"[^\S \t\n\f\v]")
#: what after an identifier makes CLexer read more or something else (``x$y``, ``L"s"``)
_AFTER_NAME = frozenset("$'\"")
#: what after a number makes it CLexer's (a digit separator, ``$``)
_AFTER_NUMBER = frozenset("$'")
#: a whole decimal floating constant as ``_FAST`` reads one
_FLOAT_WHOLE = re.compile(rf"(?:{_FLOAT})\Z")
_ATTRIBUTE_START = re.compile(r"\s*\[")
#: punctuators that start a longer token (or a comment, an attribute) where ``_FAST``'s
#: lookaheads refuse them: (text, offset after the punctuator) -> refused
_KNOWN_SPECIAL = {
    ".": lambda text, end: text.startswith(".", end),  # ...
    ":": lambda text, end: text.startswith(":", end),  # ::
    "/": lambda text, end: text.startswith(("*", "/"), end),
    "[": lambda text, end: bool(_ATTRIBUTE_START.match(text, end)),  # [[
}


class _Stop(Exception):
    """Raised in place of a lexer error while :meth:`FastLexer.tokens` reads ahead."""


def _stop(msg: str, line: int, column: int) -> None:
    raise _Stop
