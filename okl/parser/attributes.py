"""Find OKL ``@attributes`` in preprocessed text, record them, and blank them out.

pycparser never sees an ``@``: every attribute is replaced by spaces (so every other token
keeps its line and column) and recorded with the position of the thing it belongs to:

* ``for (...; ...; ...; @outer(0))`` -- the 4th for-clause; the third ``;`` is blanked too and
  the anchor is the ``for`` keyword;
* prefix ``@shared float s[4];``, ``@outer for``, ``@barrier;`` -- anchored at the next token;
* suffix ``float *A @dim(X, Y)`` -- anchored at the declarator name before it.

GNU ``__attribute__((...))`` annotations are blanked here as well, since pycparser rejects them
and device compilers have their own.
"""

from __future__ import annotations

import contextlib
import operator
import re
from dataclasses import field
from itertools import accumulate, compress, count, repeat
from typing import NamedTuple

from ..errors import Diagnostics
from ..record import record
from .cpp.preprocess import Expanded

#: One token (the only group, so that ``split`` alternates blanks and tokens), in the order
#: of preference: a pragma is a line that starts with '#' (an indented one is tokens: '#',
#: 'pragma'...), then string and character literals, identifiers, numbers, operators and
#: any other single character that is not blank.
_TOKEN = re.compile(
    r"""(^\#[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|[A-Za-z_]\w*|"""
    r"""\.?\d(?:[eEpP][+-]|[\w.])*|->|\+\+|--|<<=?|>>=?|[<>=!&|^+\-*/%]=|&&|\|\||\S)""", re.M)
#: A token's kind from its first character, where that alone decides it; the others
#: (``'#'``, quotes, ``'.'``, non-ASCII) are left to :func:`_kind_of`.
_KIND = dict.fromkeys("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_", "id") | \
    dict.fromkeys("0123456789", "num") | dict.fromkeys("#\"'.")
_DIGIT = re.compile(r"\d")
_NEWLINE = re.compile("\n")
_NOT_NEWLINE = re.compile("[^\n]")

C_KEYWORDS = frozenset("""auto break case char const continue default do double else enum extern
float for goto if inline int long register restrict return short signed sizeof static struct
switch typedef union unsigned void volatile while _Bool _Complex""".split())

LOOP_ATTRIBUTES = {"outer", "inner", "tile"}
RESERVED_PREFIX = "_okl_"  # names of generated variables and functions


class Token(NamedTuple):
    """A token of the expanded text; a tuple, so that :func:`tokenize` makes them all without
    a Python call per token."""

    kind: str  # "id" | "num" | "str" | "op" | "pragma"
    text: str
    start: int  # offset in the text
    line: int
    col: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)


@record
class AttrArg:
    """One argument: an expression (text), a string, or a nested attribute (in @tile)."""

    kind: str  # "expr" | "string" | "attr"
    text: str
    line: int
    col: int
    attr: Attribute | None = None

    @property
    def string_value(self) -> str:
        return self.text[1:-1]


@record
class Attribute:
    name: str
    line: int  # position of the '@' in the expanded text
    col: int
    args: list[AttrArg] = field(default_factory=list)
    kwargs: dict[str, AttrArg] = field(default_factory=dict)
    has_parens: bool = False
    placement: str = "prefix"  # "for" | "prefix" | "suffix"
    anchor: tuple[int, int] = (0, 0)  # (line, col) of the node it attaches to
    used: bool = False  # set by the model once attached to a node

    def __repr__(self) -> str:
        return f"@{self.name}({', '.join(a.text for a in self.args)})"


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text`` with their positions.

    Built column by column with C-level operations (``split``, ``map``, ``accumulate``):
    a loop over the tokens in Python took two thirds of the attributes stage.  ``split``
    gives the blanks before each token and the token; offsets are the running sum of their
    lengths and lines that of the newlines in the blanks (a token holds none)."""
    parts = _TOKEN.split(text)
    texts = parts[1::2]
    if not texts:
        return []
    starts = list(accumulate(map(len, parts[:-1])))[::2]
    lines = list(accumulate(map(str.count, parts[:-1:2], repeat("\n")), initial=1))[1:]
    newline_before = [-1, -1]  # [line]: the offset of the newline that starts the line
    newline_before += [m.start() for m in _NEWLINE.finditer(text)]
    cols = map(operator.sub, starts, map(newline_before.__getitem__, lines))
    kinds = list(map(_KIND.get, map(operator.itemgetter(0), texts), repeat("op")))
    k = -1
    with contextlib.suppress(ValueError):
        while True:
            k = kinds.index(None, k + 1)
            kinds[k] = _kind_of(texts[k], starts[k], text)
    if not text.isascii():
        for k, t in enumerate(texts):
            if not t[0].isascii() and _DIGIT.match(t):
                kinds[k] = "num"
    fields = zip(kinds, texts, starts, lines, cols, strict=True)
    return list(map(tuple.__new__, repeat(Token), fields))


def _kind_of(token: str, start: int, text: str) -> str:
    """The kind of a token whose first character is '#', a quote or '.'."""
    first = token[0]
    if first == "#":
        return "pragma" if start == 0 or text[start - 1] == "\n" else "op"
    if first == ".":
        return "num" if len(token) > 1 else "op"
    return "str" if len(token) > 1 else "op"


def extract(expanded: Expanded, diags: Diagnostics) -> tuple[str, list[Attribute]]:
    """Return the text with attributes blanked and the list of attributes found."""
    text, attrs, _tokens = extract_tokens(expanded, diags)
    return text, attrs


def extract_tokens(expanded: Expanded, diags: Diagnostics,
                   ) -> tuple[str, list[Attribute], list[Token]]:
    """:func:`extract`, and the tokens of the text it read: the blanked text has the same
    offsets, lines and columns, and the parser's lexer takes the tokens still in it from
    here instead of matching each again (okl.parser.clexer.FastLexer.tokens)."""
    text = expanded.text
    tokens = tokenize(text)
    stops = _stops(tokens, text)
    chars = list(text)
    attrs: list[Attribute] = []
    frames: list[list] = []  # per open paren: [is_for, semicolons, for_token, has_attr]
    last_sig: Token | None = None
    closed_for: Token | None = None  # `for` whose header the last ')' closed
    i = 0  # the first token not yet read (an attribute is read as a whole)
    reserved: set[str] = set()
    for stop in stops:
        if stop < i:
            continue
        if stop > i:  # the tokens before the stop change nothing but last_sig
            last_sig, closed_for = tokens[stop - 1], None
        i = stop
        tok = tokens[i]
        word = tok.text
        if word == "(":
            is_for = last_sig is not None and last_sig.text == "for"
            frames.append([is_for, 0, last_sig, False])
            closed_for = None
        elif word == ")":
            frame = frames.pop() if frames else None
            closed_for = frame[2] if frame and frame[0] else None
            if frame and frame[0] and frame[3]:
                _blank_last_semicolon(chars, tokens, i)
        elif word == ";":
            if frames and frames[-1][0]:
                frames[-1][1] += 1
            closed_for = None
        elif word == "@":
            attr, i = _parse_attribute(tokens, i, diags, expanded)
            if attr is None:
                continue
            _blank(chars, tok.start, tokens[i - 1].end)
            if attr.name == "directive":  # a valid one was turned into a line before cpp
                diags.error("@directive expects a string argument which starts with #",
                            expanded.locate(attr.line, attr.col),
                            hint='write @directive("#define N 8") on a line of its own')
                continue
            in_for = frames and frames[-1][0]
            if in_for and frames[-1][1] == 3:
                attr.placement = "for"
                frames[-1][3] = True
                for_tok = frames[-1][2]
                attr.anchor = (for_tok.line, for_tok.col)
            elif in_for:
                attr.placement = "for"
                attr.anchor = (frames[-1][2].line, frames[-1][2].col)
                diags.error(f"[@{attr.name}] must be the 4th clause of the for-header",
                            expanded.locate(attr.line, attr.col),
                            hint=f"write for (init; condition; update; @{attr.name})")
                if i < len(tokens) and tokens[i].text == ";":  # `@outer;` inside the header:
                    _blank(chars, tokens[i].start, tokens[i].end)  # one error is enough
                    i += 1
            elif last_sig is not None and closed_for is not None and last_sig.text == ")" \
                    and attr.name in LOOP_ATTRIBUTES:
                attr.placement = "for"
                attr.anchor = (closed_for.line, closed_for.col)
                diags.error("Attributes should be placed as an additional statement",
                            expanded.locate(attr.line, attr.col),
                            hint=f"write for (init; condition; update; @{attr.name}) "
                                 "or put the attribute before the for")
            elif last_sig is not None and (last_sig.kind == "id" and last_sig.text not in
                                           C_KEYWORDS or last_sig.text == "]"):
                attr.placement = "suffix"
                attr.anchor = _declarator_anchor(tokens, last_sig)
            else:
                attr.placement = "prefix"
                nxt = _next_non_attribute(tokens, i)
                attr.anchor = (nxt.line, nxt.col) if nxt else (tok.line, tok.col)
            attrs.append(attr)
            continue
        else:  # a name: reserved, or a GNU attribute
            if word.startswith(RESERVED_PREFIX) and word not in reserved:
                reserved.add(word)
                diags.error(f"[{word}] is a reserved name: okl's generated code uses names "
                            f"starting with {RESERVED_PREFIX}",
                            expanded.locate(tok.line, tok.col), hint="rename it")
            if word in ("__attribute__", "__attribute", "__declspec"):
                end = _skip_parens(tokens, i + 1)
                _blank(chars, tok.start, tokens[end - 1].end if end > i + 1 else tok.end)
                i = end
                continue
            closed_for = None
        last_sig = tok
        i += 1
    return "".join(chars), attrs, tokens


#: The tokens that :func:`extract` acts on (with the names that start with RESERVED_PREFIX)
_STOPS = frozenset({"@", "(", ")", ";", "__attribute__", "__attribute", "__declspec"})


def _stops(tokens: list[Token], text: str) -> list[int]:
    """The indices of the tokens :func:`extract` acts on, found without a Python loop (about
    a fifth of the tokens are stops; walking all of them in Python took a third of the
    stage).  Any other token only becomes the token before the next one."""
    texts = list(map(_TEXT, tokens))
    stop = map(_STOPS.__contains__, texts)
    if RESERVED_PREFIX in text:
        stop = map(operator.or_, stop, map(_RESERVED, texts))
    return list(compress(count(), stop))


_TEXT = operator.itemgetter(1)  # Token.text
_RESERVED = operator.methodcaller("startswith", RESERVED_PREFIX)


def _parse_attribute(tokens: list[Token], i: int, diags: Diagnostics,
                     expanded: Expanded) -> tuple[Attribute | None, int]:
    at = tokens[i]
    if i + 1 >= len(tokens) or tokens[i + 1].kind != "id":
        diags.error("expected an attribute name after '@'", expanded.locate(at.line, at.col),
                    hint="OKL attributes look like @outer, @inner(0), @shared, @tile(16, @outer, "
                         "@inner)")
        return None, i + 1
    attr = Attribute(tokens[i + 1].text, at.line, at.col)
    j = i + 2
    if j < len(tokens) and tokens[j].text == "(":
        end = _skip_parens(tokens, j)
        attr.has_parens = True
        if tokens[end - 1].text != ")":
            diags.error(f"unterminated argument list of @{attr.name}",
                        expanded.locate(tokens[j].line, tokens[j].col),
                        hint="close it with ')'")
        _parse_args(attr, tokens[j + 1:end - 1], diags, expanded)
        j = end
    return attr, j


def _parse_args(attr: Attribute, toks: list[Token], diags: Diagnostics,
                expanded: Expanded) -> None:
    for part in _split_commas(toks):
        if not part:
            diags.error(f"empty argument in @{attr.name}(...)",
                        expanded.locate(attr.line, attr.col), hint="remove the extra comma")
            continue
        first = part[0]
        if first.text == "@":
            nested, k = _parse_attribute(part, 0, diags, expanded)
            if nested is None:
                continue
            if k < len(part):
                diags.error(f"unexpected '{part[k].text}' after @{nested.name} in "
                            f"@{attr.name}(...)", expanded.locate(part[k].line, part[k].col),
                            hint="separate the arguments with commas")
            attr.args.append(AttrArg("attr", _join(part), first.line, first.col, nested))
        elif len(part) >= 3 and first.kind == "id" and part[1].text == "=":
            value = part[2:]
            attr.kwargs[first.text] = AttrArg(_arg_kind(value), _join(value), first.line,
                                              first.col)
        else:
            attr.args.append(AttrArg(_arg_kind(part), _join(part), first.line, first.col))


def _arg_kind(part: list[Token]) -> str:
    return "string" if len(part) == 1 and part[0].kind == "str" \
        and part[0].text.startswith('"') else "expr"


def _split_commas(toks: list[Token]) -> list[list[Token]]:
    parts: list[list[Token]] = [[]]
    depth = 0
    for t in toks:
        if t.text in "([{" and t.kind == "op":
            depth += 1
        elif t.text in ")]}" and t.kind == "op":
            depth -= 1
        if t.text == "," and depth == 0:
            parts.append([])
        else:
            parts[-1].append(t)
    return parts if parts != [[]] else []


def _join(toks: list[Token]) -> str:
    out = ""
    prev: Token | None = None
    for t in toks:
        if prev is not None and t.start > prev.end:
            out += " "
        out += t.text
        prev = t
    return out


def _skip_parens(tokens: list[Token], j: int) -> int:
    """Index just past the parenthesis group starting at tokens[j] (if it is '(')."""
    if j >= len(tokens) or tokens[j].text != "(":
        return j
    depth = 0
    while j < len(tokens):
        if tokens[j].text == "(":
            depth += 1
        elif tokens[j].text == ")":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return j


def _next_non_attribute(tokens: list[Token], i: int) -> Token | None:
    while i < len(tokens) and tokens[i].text == "@":
        i += 2
        i = _skip_parens(tokens, i)
    return tokens[i] if i < len(tokens) else None


def _declarator_anchor(tokens: list[Token], last: Token) -> tuple[int, int]:
    """For `x[4][5] @attr`, anchor at `x`; for `x @attr` at `x`."""
    if last.text != "]":
        return (last.line, last.col)
    k = next(k for k, t in enumerate(tokens) if t is last)
    depth = 0
    while k >= 0:
        t = tokens[k]
        if t.text == "]":
            depth += 1
        elif t.text == "[":
            depth -= 1
        elif depth == 0 and t.kind == "id":
            return (t.line, t.col)
        k -= 1
    return (last.line, last.col)


def _blank(chars: list[str], start: int, end: int) -> None:
    chars[start:end] = _NOT_NEWLINE.sub(" ", "".join(chars[start:end]))


def _blank_last_semicolon(chars: list[str], tokens: list[Token], close: int) -> None:
    """Blank the `;` that separated the (now blank) 4th for-clause from the update."""
    k = close - 1
    while k >= 0 and tokens[k].text != ";":
        if chars[tokens[k].start] != " ":
            return  # something real sits between ';' and ')': leave it for pycparser
        k -= 1
    if k >= 0:
        chars[tokens[k].start] = " "
