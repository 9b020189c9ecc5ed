"""okl's in-process C preprocessor for the common case; cpp answers for everything else.

Why: starting GCC's ``cc1 -E`` costs 4-11 ms per file before it reads a byte (its own start-
up; okl/parser/cpp/run.py already skips the driver), a third to a half of okl's whole
translate time on the benchmark kernels, and issue 14 asks a kernel file's translation to
take at most 15 ms.  The kernels okl sees use a small part of the preprocessor: object- and
function-like ``#define``s, ``#undef``, conditionals, ``#pragma`` and the ``#line``
directives okl writes itself.  This module does exactly that part, as the C standard
specifies it (macro expansion with hide sets, Prosser's algorithm; ``#``, ``##``,
``__VA_ARGS__``; ``#if`` arithmetic in okl/parser/cpp/expr.py), in about a millisecond.

It is never the one to judge bad input.  Whatever it does not model, and whatever cpp would
answer with a diagnostic (an error or a warning), makes :func:`expand` return None, and the
caller runs cpp as before: ``#include "..."``, ``#error``, ``#warning``, unknown directives,
``__FILE__``/``__LINE__`` and the other dynamic macros, ``_Pragma``, ``__VA_OPT__``, GNU's
``, ## __VA_ARGS__`` and named variadic parameters, redefinitions that differ, unbalanced
conditionals, unterminated macro calls or quotes, arguments of the wrong count, pastes that
do not form one token, trigraphs, non-ASCII text, ``#pragma once``/``GCC``/
``push_macro``/``pop_macro``, ``defined`` produced by a macro, and expansions past
:data:`MAX_TOKENS` tokens of replacement lists or past cpp's output cap (a macro bomb: cpp
runs under okl's limits and reports it).

The output is what ``cpp -dD`` would print, as okl/parser/cpp/preprocess.py reads it: ``# N
"file"`` markers, the ``#define``/``#undef`` lines in place, every token on the line it
came from (a macro's expansion on the line of the macro's name, as cpp places it), and lines
without macros exactly as written, comments blanked, so that columns need no mapping.
"""

from __future__ import annotations

import bisect
import re

from ... import limits
from .expr import Unsupported, evaluate

#: Tokens one file's macro expansion may produce before cpp is left to judge it.
MAX_TOKENS = 200_000
#: What ``cpp -undef -std=c99`` predefines.
PREDEFINED = (("__STDC__", "1"), ("__STDC_VERSION__", "199901L"), ("__STDC_HOSTED__", "1"))

_BLANKABLE = re.compile(r"""//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'""",
                        re.S)
#: (white space before, token) for every preprocessing token of a line
_PP_TOKEN = re.compile(r"""(\s*)((?:u8|[uUL])?"(?:\\.|[^"\\])*"|[uUL]?'(?:\\.|[^'\\])*'"""
                       r"""|[A-Za-z_]\w*|\.?[0-9](?:[eEpP][+-]|[\w.])*|\.\.\.|<<=|>>=|->"""
                       r"""|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[*/%+\-&^|]=|\#\#|\S)""")
_IDENT = re.compile(r"[A-Za-z_]\w*")
#: where a line needs _step's reading: a directive (or a '##' line) after the newline
#: matched, a continuation (any backslash), a literal, __VA_ARGS__.  Each alternative
#: starts with one character, so that ``re`` skips to the next of them in C (with ``^``, or
#: a class for the quotes, it tries the whole pattern at every position of the text).
_SPECIAL_LINE = re.compile(r"""\n[ \t\x1c-\x1f]*\#|"|'|\\|__VA_ARGS__""")
_NEWLINE = re.compile("\n")
#: pp-numbers (so that words inside them are not taken for names) and identifiers
_WORD = re.compile(r"\.?[0-9](?:[eEpP][+-]|[\w.])*|[A-Za-z_]\w*")
#: _WORD for split() (which keeps the words), spelt to start with the class of a word's
#: first character and to read the rest by what that character was: ``re`` then skips the
#: characters that start no word in C, where _WORD's pattern is tried at each of them (a
#: third of the split of a kernel's text)
_WORD_SPLIT = re.compile(r"([.0-9A-Za-z_](?:(?<=\.)[0-9](?:[eEpP][+-]|[\w.])*"
                         r"|(?<=[0-9])(?:[eEpP][+-]|[\w.])*|(?<=[A-Za-z_])\w*))")
#: identifiers that make cpp do what this module does not (dynamic macros, operators, ...)
_DYNAMIC = re.compile(r"__(?:FILE|LINE|COUNTER|DATE|TIME|TIMESTAMP|BASE_FILE|INCLUDE_LEVEL|"
                      r"FILE_NAME|VA_OPT)__|__has_|_Pragma\b")
#: what a cpp predefines besides PREDEFINED (``__STDC_IEC_559__``, ...) varies by version
_OTHER_STDC = re.compile(r"__STDC(?!__\b|_VERSION__\b|_HOSTED__\b)\w*")
#: trigraphs, digraphs, '$' in names, odd white space, null characters
_ODD = ("??", "%:", "$", "\r", "\f", "\v", "\x00")
_LINE = re.compile(r'\s*(\d+)(?:\s+("(?:\\.|[^"\\])*"))?\s*\Z')


#: The macros of definitions given on the command line or predefined (line 0), by their
#: text: every translation of a mode defines the same ~20 (``__OKL__``, ``OKL_MODE``, the C
#: spellings, the usual -D's), and lexing them was a sixth of the preprocessing.  A macro is
#: never changed once made (an expansion places copies of its tokens), so files share it.
_GIVEN: dict[str, _Macro] = {}
_GIVEN_CAP = 1024  # distinct -D texts kept (a program that varies them starts afresh)


class _Bail(Exception):
    """cpp should preprocess this file."""


class _Token:
    """A preprocessing token; ``col`` is None for tokens made by a macro expansion."""

    __slots__ = ("kind", "text", "space", "line", "col", "hide")

    def __init__(self, kind: str, text: str, space: bool, line: int, col: int | None,
                 hide: frozenset = frozenset()) -> None:
        self.kind, self.text, self.space = kind, text, space
        self.line, self.col, self.hide = line, col, hide

    def moved(self, line: int, space: bool, hide: frozenset) -> _Token:
        return _Token(self.kind, self.text, space, line, None, hide)


_PLACEMARKER = _Token("placemarker", "", False, 0, None)


class _Macro:
    __slots__ = ("name", "params", "variadic", "body", "spelling")

    def __init__(self, name: str, params: tuple[str, ...] | None, variadic: bool,
                 body: list[_Token]) -> None:
        self.name, self.params, self.variadic, self.body = name, params, variadic, body
        if params is None:  # object-like
            head = name
        else:
            shown = (*params[:-1], "...") if variadic else params
            head = f"{name}({','.join(shown)})"
        self.spelling = f"{head} {_spell(body)}".rstrip() if body else head

    def same(self, other: _Macro) -> bool:
        return self.spelling == other.spelling


def expand(prepared: str, defines: list[tuple[str, str]]) -> str | None:
    """cpp's ``-dD`` output for ``prepared`` (okl's source after
    okl.parser.cpp.preprocess._prepare, which starts with a ``#line``) with ``defines`` given as
    ``-D name=value``; None where cpp must answer instead."""
    try:
        return _Preprocessor(defines).run(prepared)
    except (_Bail, Unsupported, RecursionError):
        return None


def _lex(text: str, line: int) -> list[_Token]:
    """The tokens of one logical line (comments already blanked)."""
    out = []
    col = 1
    for space, tok in _PP_TOKEN.findall(text):
        col += len(space)
        c, last = tok[0], tok[-1]
        if last == '"' or last == "'":
            if len(tok) == 1:
                raise _Bail  # an unterminated literal: cpp warns
            kind = "str" if last == '"' else "chr"
        elif c.isalpha() or c == "_":
            kind = "id"
        elif c.isdigit() or (c == "." and len(tok) > 1 and tok[1].isdigit()):
            kind = "num"
        else:
            kind = "punct"
        out.append(_Token(kind, tok, bool(space), line, col))
        col += len(tok)
    return out


def _spell(tokens: list[_Token]) -> str:
    """Tokens as cpp prints a macro body: one space wherever there was white space."""
    return "".join((" " if t.space and i else "") + t.text for i, t in enumerate(tokens))


def _stringize(tokens: list[_Token]) -> str:
    parts = []
    for i, t in enumerate(tokens):
        text = t.text
        if t.kind in ("str", "chr"):
            text = text.replace("\\", "\\\\").replace('"', '\\"')
        parts.append((" " if t.space and i else "") + text)
    return '"' + "".join(parts) + '"'


def _glue_space(prev: str, text: str) -> bool:
    """Whether ``prev`` followed by ``text`` could read as other tokens without a space."""
    a, b = prev[-1], text[0]
    if (a.isalnum() or a == "_") and (b.isalnum() or b in "_."):
        return True
    if a == "." and b.isdigit():
        return True
    return a in "+-*/%<>=!&|^#.:" and b in "+-*/%<>=!&|^#.:"


class _Preprocessor:
    def __init__(self, defines: list[tuple[str, str]]) -> None:
        self.macros: dict[str, _Macro] = {}
        #: object-like macro -> its expansion as text, or False (see _flatten); emptied by
        #: every #define and #undef
        self.flats: dict[str, str | bool] = {}
        self.fixed: set[str] = set()  # predefined: cpp warns when they change
        self.budget = MAX_TOKENS
        #: characters of output left before cpp's own cap (OKL_MAX_CPP_OUTPUT_BYTES): past
        #: it, cpp runs and is stopped there with its located error
        self.room = int(limits.CPP_OUTPUT_BYTES)
        self.out: list[str] = []
        for name, value in PREDEFINED:
            self.out += ['# 0 "<built-in>"', "#define " + self._define(f"{name} {value}", 0)]
        self.fixed = set(self.macros)
        for name, value in defines:
            if "\n" in value or "=" in name:
                raise _Bail
            self.out += ['# 0 "<command-line>"', "#define " + self._define(f"{name} {value}", 0)]
        self.out.append('# 1 "<stdin>"')
        self.file = '"<stdin>"'

    # -- the file --------------------------------------------------------------------------

    def run(self, prepared: str) -> str:
        text = _BLANKABLE.sub(_blank, prepared)
        if (not text.isascii() or any(odd in text for odd in _ODD) or "/*" in text
                or ("_" in text and _DYNAMIC.search(text))
                or ("__STDC" in text and _OTHER_STDC.search(text))
                or re.search(r"\\[ \t]+$", text, re.M)):
            raise _Bail  # see the module's docstring; "/*" left: an unterminated comment
        self.lines = text.split("\n")
        self.pos = 0
        #: per open conditional: [taking its lines now, a group taken already, #else seen]
        self.stack: list[list[bool]] = []
        self.emitted: list[str] = []
        # the lines _step must read one by one (directives, continued lines, quotes,
        # __VA_ARGS__); the runs of other lines between them go through _plain_lines
        newlines = [m.start() for m in _NEWLINE.finditer(text)]
        special = {bisect.bisect_left(newlines, m.start()) + (text[m.start()] == "\n")
                   for m in _SPECIAL_LINE.finditer(text)}
        if self.lines[0].lstrip().startswith("#"):  # (always: _prepare's #line)
            special.add(0)
        stops = sorted(special)
        stops.append(len(self.lines))
        k = 0
        while self.pos < len(self.lines):
            while stops[k] < self.pos:
                k += 1
            if stops[k] == self.pos:
                self._step()
            else:
                self._plain_lines(stops[k])
        if self.stack:
            raise _Bail  # a missing #endif: cpp_repairs handles it
        return "\n".join(self.out + self.emitted)

    def _logical(self) -> tuple[str, int]:
        """The next logical line (continuations joined) and how many lines it spans;
        ``self.starts`` gets the offsets at which its physical lines begin in it."""
        first = self.pos
        line = self.lines[first]
        parts = [line]
        self.starts = [0]
        while line.endswith("\\"):
            if parts[-1].count('"') % 2:  # a string continued on the next line
                raise _Bail
            parts[-1] = line[:-1]
            self.pos += 1
            if self.pos >= len(self.lines):
                raise _Bail
            line = self.lines[self.pos]
            self.starts.append(self.starts[-1] + len(parts[-1]))
            parts.append(line)
        self.pos += 1
        return "".join(parts), self.pos - first

    def _spend(self, chars: int) -> None:
        self.room -= chars
        if self.room < 0:
            raise _Bail

    def _emit(self, text: str, span: int = 1) -> None:
        self._spend(len(text))
        self.emitted.append(text)
        self.emitted.extend([""] * (span - 1))

    def _active(self) -> bool:
        return not self.stack or self.stack[-1][0]

    def _step(self) -> None:
        start = self.pos
        text, span = self._logical()
        stripped = text.lstrip()
        if stripped.startswith("##"):
            raise _Bail  # a '##' token, not a directive: leave the oddity to cpp
        if stripped.startswith("#"):
            self._directive(stripped[1:], start, span)
        elif not self._active() or not stripped:
            self._emit("", span)
        elif "__VA_ARGS__" in text:
            raise _Bail  # outside a variadic macro's body: cpp warns
        elif span > 1 or "'" in text or '"' in text:  # the lexer checks literals are closed
            self._expand_code(text, start, span)
        else:
            flat = self._flat_line(text)
            if flat is None:
                self._expand_code(text, start, span)
            else:
                self._emit(flat)

    def _plain_lines(self, end: int) -> None:
        """Lines ``self.pos`` to ``end`` (none a directive, continued, or holding a quote or
        ``__VA_ARGS__``), emitted as :meth:`_step` would emit each: one split of the run and
        a set intersection with the macros instead of a Python pass per line and per word
        (the per-line work was half of the preprocessing).  A line with a function-like
        macro's name, or a macro whose expansion does, is :meth:`_step`'s."""
        start = self.pos
        lines = self.lines[start:end]
        if not self._active():
            self.emitted.extend([""] * len(lines))
            self.pos = end
            return
        parts = _WORD_SPLIT.split("\n".join(lines))  # between words, word, ..., between
        macros = self.macros
        flats: dict[str, str] = {}
        waits: list[str] = []  # the names that need _step's expansion
        for word in macros.keys() & set(parts[1::2]):
            flat = self.flats.get(word)
            if flat is None:
                flat = self.flats[word] = self._flatten(word)
            if isinstance(flat, str):
                flats[word] = flat
            else:
                waits.append(word)
        if not waits:
            self._emit_plain(parts, flats)
            self.pos = end
            return
        # the lines naming one of them (a name inside a longer word too: such a line is
        # only read the slow way) one by one, the stretches between them at once
        for k, line in enumerate(lines):
            if start + k < self.pos:  # read by _step already (a call that went on)
                continue
            if any(word in line for word in waits):
                if self.pos < start + k:
                    self._plain_lines(start + k)
                self._step()
        if self.pos < end:
            self._plain_lines(end)

    def _emit_plain(self, parts: list[str], flats: dict[str, str]) -> None:
        """Emit the lines that ``parts`` split, each macro of ``flats`` replaced (a
        replacement holds no newline: a line each still)."""
        block = self._replace(parts, flats) if flats else "".join(parts)
        out = [line.rstrip() for line in block.split("\n")]
        self._spend(sum(map(len, out)))
        self.emitted.extend(out)

    def _replace(self, parts: list[str], flats: dict[str, str]) -> str:
        """``parts`` (a split by _WORD_SPLIT) with each word of ``flats`` replaced by its
        text, glued to the characters around it as written."""
        # the words in place, left to right (a sub() with a callback per word was a tenth of
        # the preprocessing)
        out = list(parts)
        last = len(parts) - 1
        for k in range(1, last, 2):
            flat = flats.get(parts[k])
            if flat is None:
                continue
            gap = parts[k - 1]
            before = gap[-1] if gap else parts[k - 2][-1] if k > 1 else " "
            gap = parts[k + 1]
            after = gap[0] if gap else parts[k + 2][0] if k + 2 < last else " "
            if not flat:
                out[k] = " " if _glue_space(before, after) else ""
                continue
            lead = " " if _glue_space(before, flat) else ""
            self._spend(len(flat))
            out[k] = lead + flat + (" " if _glue_space(flat, after) else "")
        return "".join(out)

    def _flat_line(self, text: str) -> str | None:
        """The line with its macros replaced, where each is object-like and expands to the
        same text wherever it stands; None where the line needs the general expansion.

        Most lines of a kernel use no macro or only constants (``p_Nq``, ``dfloat``):
        replacing words in the text keeps every other column as written and costs a tenth
        of lexing the line into tokens."""
        macros = self.macros
        parts = _WORD_SPLIT.split(text)  # between words, word, between, ..., between
        flats: dict[str, str] = {}
        for word in parts[1::2]:
            if word in macros:
                flat = self.flats.get(word)
                if flat is None:
                    flat = self.flats[word] = self._flatten(word)
                if not isinstance(flat, str):  # False: it depends on what follows
                    return None
                flats[word] = flat
        if not flats:
            return text.rstrip()
        return self._replace(parts, flats).rstrip()

    def _flatten(self, name: str) -> str | bool:
        """What object-like macro ``name`` expands to, as text, when that does not depend on
        what follows it (it does not end in a function-like macro's name); else False."""
        if self.macros[name].params is not None:
            return False
        tokens = self._expand([_Token("id", name, False, 0, None)], None)
        if tokens and tokens[-1].kind == "id" and self._waits(tokens[-1]):
            return False
        text = ""
        for t in tokens:
            text += (" " if text and (t.space or _glue_space(text, t.text)) else "") + t.text
        return text

    # -- code lines ------------------------------------------------------------------------

    def _expand_code(self, text: str, start: int, span: int) -> None:
        """Expand a code line, pulling the lines a macro call continues on, and place each
        resulting token on its line of origin."""
        first_out = len(self.emitted)
        self.emitted.extend([""] * span)
        tokens = self._lex_spliced(text, start, span)
        result = self._expand(tokens, self._pull)
        lines: dict[int, list[_Token]] = {}
        for t in result:
            lines.setdefault(t.line, []).append(t)
        for line, toks in lines.items():
            index = first_out + line - start
            while index >= len(self.emitted):
                self.emitted.append("")
            self.emitted[index] = _render(toks)
            self._spend(len(self.emitted[index]))

    def _lex_spliced(self, text: str, start: int, span: int) -> list[_Token]:
        """The tokens of a logical line, each on the physical line it starts on (as cpp
        places them: a diagnostic then points at the right line of a continued one)."""
        tokens = _lex(text, start)
        if span > 1:
            starts = self.starts
            for t in tokens:
                col = t.col
                assert col is not None  # lexed from the text: every token has its column
                k = bisect.bisect_right(starts, col - 1) - 1
                t.line, t.col = start + k, col - starts[k]
        return tokens

    def _pull(self) -> list[_Token] | None:
        """The tokens of the next code line, for a macro call that goes on after its line;
        None at the end of the file or at a directive (cpp ends the call there)."""
        while self.pos < len(self.lines):
            stripped = self.lines[self.pos].lstrip()
            if stripped.startswith("#") or not self._active():
                return None
            start = self.pos
            text, span = self._logical()
            self.emitted.extend([""] * span)
            tokens = self._lex_spliced(text, start, span)
            if tokens:
                return tokens
        return None

    # -- macro expansion -------------------------------------------------------------------

    def _expand(self, tokens: list[_Token], pull) -> list[_Token]:
        """Prosser's algorithm: rescan with hide sets; ``pull`` gives more tokens when a
        call's arguments (or its ``(``) lie beyond ``tokens`` (None: they may not)."""
        out: list[_Token] = []
        stack = tokens[::-1]
        macros = self.macros
        while stack or (pull and out and out[-1].kind == "id" and self._waits(out[-1])):
            if not stack:  # a function-like macro's name ends the line: look for its '('
                more = pull()
                if more is None:
                    break
                stack = more[::-1]
                stack.append(out.pop())
            t = stack.pop()
            m = macros.get(t.text) if t.kind == "id" else None
            if m is None or t.text in t.hide:
                out.append(t)
                continue
            if m.params is None:
                stack.extend(reversed(self._substitute(m, None, t.hide | {m.name}, t)))
                continue
            if not stack:
                out.append(t)
                continue
            if stack[-1].text != "(":
                out.append(t)
                continue
            stack.pop()
            args, close = self._arguments(m, stack, pull)
            hide = (t.hide & close.hide) | {m.name}
            stack.extend(reversed(self._substitute(m, args, hide, t)))
        return out

    def _waits(self, t: _Token) -> bool:
        m = self.macros.get(t.text)
        return m is not None and m.params is not None and t.text not in t.hide

    def _arguments(self, m: _Macro, stack: list[_Token], pull) -> tuple[list, _Token]:
        """A call's arguments (token lists), taken off ``stack`` through its ``)``."""
        params = m.params
        assert params is not None  # only a function-like macro is called
        args: list[list[_Token]] = [[]]
        depth = 0
        while True:
            if not stack:
                more = pull() if pull else None
                if more is None:
                    raise _Bail  # an unterminated call: cpp reports it
                stack.extend(reversed(more))
            t = stack.pop()
            if t.text == "(":
                depth += 1
            elif t.text == ")":
                if depth == 0:
                    break
                depth -= 1
            elif t.text == "," and depth == 0:
                if not (m.variadic and len(args) > len(params) - 1):
                    args.append([])
                    continue
            args[-1].append(t)
        wanted = len(params)
        if wanted == 0 and args == [[]]:
            args = []
        elif m.variadic and len(args) == wanted - 1:
            args.append([])  # no variadic arguments
        if len(args) != wanted:
            raise _Bail
        return args, t

    def _substitute(self, m: _Macro, args: list | None, hide: frozenset,
                    call: _Token) -> list[_Token]:
        """The replacement list of a call of ``m`` at ``call``: parameters replaced, ``#``
        and ``##`` applied, every token placed on the call's line with ``hide`` added."""
        body = m.body
        params = m.params or ()
        expanded: dict[int, list[_Token]] = {}
        out: list[_Token] = []
        pastes: set[int] = set()
        i = 0
        while i < len(body):
            t = body[i]
            k = params.index(t.text) if args is not None and t.kind == "id" \
                and t.text in params else -1
            if args is not None and t.text == "#":
                arg = args[params.index(body[i + 1].text)]
                out.append(_Token("str", _stringize(arg), t.space, 0, None))
                i += 2
                continue
            if t.text == "##":
                pastes.add(len(out))
                out.append(t)
            elif k >= 0:
                assert args is not None  # k is a parameter's only where there are arguments
                pasted = (i > 0 and body[i - 1].text == "##") or \
                    (i + 1 < len(body) and body[i + 1].text == "##")
                if pasted:
                    arg = args[k]
                else:
                    if k not in expanded:
                        expanded[k] = self._expand(args[k], None)
                    arg = expanded[k]
                if not arg:
                    out.append(_PLACEMARKER)
                else:
                    out.append(arg[0].moved(0, t.space, arg[0].hide))
                    out.extend(arg[1:])
            else:
                out.append(t)
            i += 1
        if pastes:
            out = _paste(out, pastes)
        self.budget -= len(out)
        if self.budget < 0:
            raise _Bail
        line = call.line
        result = [t.moved(line, t.space, t.hide | hide) for t in out if t is not _PLACEMARKER]
        if result:
            result[0].space = call.space
        return result

    # -- directives ------------------------------------------------------------------------

    def _directive(self, body: str, start: int, span: int) -> None:
        m = _IDENT.match(body.lstrip())
        name = m.group() if m else ""
        rest = body.lstrip()[len(name):]
        if name in ("if", "ifdef", "ifndef"):
            if not self._active():
                self.stack.append([False, True, False])  # a group inside a skipped one
            else:
                taking = self._condition(name, rest, start)
                self.stack.append([taking, taking, False])
        elif name in ("elif", "else"):
            if not self.stack or self.stack[-1][2] or (name == "else" and rest.strip()):
                raise _Bail  # no #if, after #else, extra tokens: cpp's diagnostics
            group = self.stack[-1]
            if group[1]:  # a group was taken (or the whole conditional is skipped)
                group[0] = False
            elif name == "else":
                group[0] = group[1] = True
            else:
                group[0] = group[1] = self._condition("if", rest, start)
            group[2] = name == "else"
        elif name == "endif":
            if not self.stack or rest.strip():
                raise _Bail
            self.stack.pop()
        elif not self._active():
            pass  # other directives in a skipped group are not read
        elif name == "define":
            self._emit("#define " + self._define(rest, start + 1), span)
            return
        elif name == "undef":
            words = rest.split()
            if len(words) != 1 or not _IDENT.fullmatch(words[0]) or words[0] in self.fixed:
                raise _Bail
            self.macros.pop(words[0], None)
            self.flats.clear()
            self._emit(f"#undef {words[0]}", span)
            return
        elif name == "pragma":
            self._pragma(rest, start, span)
            return
        elif name == "line":
            m = _LINE.match(rest)
            if m is None:
                raise _Bail
            file = m.group(2) or self.file
            self.file = file
            self._emit(f"# {m.group(1)} {file}", span)
            return
        elif name or rest.strip():  # include, error, warning, unknown: cpp's
            raise _Bail
        self._emit("", span)

    def _condition(self, name: str, rest: str, start: int) -> bool:
        tokens = _lex(rest, start)
        if name != "if":
            if len(tokens) != 1 or tokens[0].kind != "id":
                raise _Bail  # no name, or extra tokens: cpp says so
            return (tokens[0].text in self.macros) == (name == "ifdef")
        resolved: list[_Token] = []
        i = 0
        while i < len(tokens):
            t = tokens[i]
            if t.text == "defined" and t.kind == "id":
                if i + 1 < len(tokens) and tokens[i + 1].text == "(":
                    if i + 3 >= len(tokens) or tokens[i + 3].text != ")" \
                            or tokens[i + 2].kind != "id":
                        raise _Bail
                    word, i = tokens[i + 2].text, i + 4
                elif i + 1 < len(tokens) and tokens[i + 1].kind == "id":
                    word, i = tokens[i + 1].text, i + 2
                else:
                    raise _Bail
                resolved.append(_Token("num", "1" if word in self.macros else "0", True,
                                       start, None))
                continue
            resolved.append(t)
            i += 1
        expanded = self._expand(resolved, None)
        if any(t.text == "defined" for t in expanded):
            raise _Bail  # 'defined' from a macro: cpp warns that it is not portable
        return evaluate([(t.kind, t.text) for t in expanded]) != 0

    def _define(self, rest: str, line: int) -> str:
        """Define the macro of a ``#define``'s text; return its spelling, as ``-dD`` prints
        it."""
        if line == 0:  # predefined or -D: the same ~20 for every file of a mode
            macro = _GIVEN.get(rest)
            if macro is None:
                macro = self._parse_define(rest, line)
                if len(_GIVEN) >= _GIVEN_CAP:
                    _GIVEN.clear()
                _GIVEN[rest] = macro
        else:
            macro = self._parse_define(rest, line)
        name = macro.name
        old = self.macros.get(name)
        if old is not None and (name in self.fixed or not old.same(macro)):
            raise _Bail  # a redefinition cpp warns about
        self.macros[name] = macro
        self.flats.clear()
        return macro.spelling

    def _parse_define(self, rest: str, line: int) -> _Macro:
        """The macro of a ``#define``'s text (:meth:`_define` enters it)."""
        m = re.match(r"\s*([A-Za-z_]\w*)", rest)
        if m is None or m.group(1) in ("defined", "__VA_ARGS__"):
            raise _Bail
        name = m.group(1)
        after = rest[m.end():]
        params: tuple[str, ...] | None = None
        variadic = False
        if after.startswith("("):
            close = after.find(")")
            if close < 0:
                raise _Bail
            words = [w.strip() for w in after[1:close].split(",")]
            if words == [""]:
                words = []
            if words and words[-1] == "...":
                variadic = True
                words[-1] = "__VA_ARGS__"
            if any(not _IDENT.fullmatch(w) for w in words) or len(set(words)) != len(words) \
                    or ("__VA_ARGS__" in words[:-1] if variadic else "__VA_ARGS__" in words):
                raise _Bail
            params = tuple(words)
            after = after[close + 1:]
        elif after[:1] not in ("", " ", "\t"):
            raise _Bail  # no white space after the name: C99 requires it, cpp warns
        body = _lex(after, line)
        if body:
            body[0].space = False
        self._check_body(body, params, variadic)
        return _Macro(name, params, variadic, body)

    @staticmethod
    def _check_body(body: list[_Token], params, variadic: bool) -> None:
        texts = [t.text for t in body]
        if texts and (texts[0] == "##" or texts[-1] == "##"):
            raise _Bail
        for i, t in enumerate(texts):
            if t == "#" and params is not None and (i + 1 == len(texts)
                                                     or texts[i + 1] not in params):
                raise _Bail
            if t == "__VA_ARGS__" and not variadic:
                raise _Bail
            if t == "##" and variadic and texts[i + 1] == "__VA_ARGS__" and texts[i - 1] == ",":
                raise _Bail  # GNU's comma deletion

    def _pragma(self, rest: str, start: int, span: int) -> None:
        tokens = _lex(rest, start)
        if tokens and tokens[0].text in ("once", "GCC", "push_macro", "pop_macro"):
            raise _Bail
        self._emit("#pragma " + _spell(tokens) if tokens else "#pragma ", span)


def _paste(out: list[_Token], pastes: set[int]) -> list[_Token]:
    """Apply the ``##`` operators at ``pastes`` (indices into ``out``), left to right."""
    result: list[_Token] = []
    i = 0
    while i < len(out):
        t = out[i]
        if i in pastes:
            left = result.pop()
            right = out[i + 1]
            if left is _PLACEMARKER:
                result.append(right)
            elif right is _PLACEMARKER:
                result.append(left)
            else:
                text = left.text + right.text
                lexed = _lex(text, 0)
                if len(lexed) != 1 or lexed[0].text != text:
                    raise _Bail  # not one token: cpp's error
                result.append(_Token(lexed[0].kind, text, left.space, 0, None, left.hide))
            i += 2
            continue
        result.append(t)
        i += 1
    return result


def _render(tokens: list[_Token]) -> str:
    """One output line: tokens of the source at their columns, others spaced as needed."""
    text = ""
    for t in tokens:
        if t.col is not None and len(text) < t.col - (1 if text else 0):
            text += " " * (t.col - 1 - len(text))
        elif text and (t.space or _glue_space(text, t.text)):
            text += " "
        text += t.text
    return text


def _blank(m: re.Match) -> str:
    """A comment as white space of its shape (newlines kept); literals stay."""
    s = m.group()
    if s[0] in "\"'":
        return s
    if s.startswith("//") and s.endswith("\\"):
        raise _Bail  # a line comment continued on the next line
    return re.sub(r"[^\n]", " ", s) if "\n" in s else " " * len(s)
