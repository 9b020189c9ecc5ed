"""Preprocess OKL source and keep a map back to the original text.

okl's own in-process preprocessor (okl/parser/cpp/inline.py) takes a file first: it does the
part of cpp that kernels use, in about a millisecond, and declines everything else and
everything cpp would diagnose; then the system ``cpp`` runs, as below.  ``OKL_CPP`` set
(to a cpp, or ``pcpp``) skips okl's own.  tests/test_cppinline.py checks it against cpp.

Choice of the external preprocessor: the system ``cpp`` (GCC's), not pcpp.  Measured with
``python benchmarks/frontend_time.py --runs 21`` on its generated 496-line kernel file (70
``#define``s, function-like macros, ``#if``/``#elif``, nine kernels; Python 3.11, GCC 12 cpp,
a 2-core x86_64 VM shared with other jobs): cpp in a subprocess takes 6-8 ms per file, pcpp
1.30 in-process 27-35 ms (3-6x slower), and both produce the same tokens for that file (the
script checks).  The whole okl front end takes about 39 ms on it: preprocess 6 ms (GCC's
cc1 started directly, okl.parser.cpp.run.cpp_command, plus the line and macro bookkeeping
here), attributes 5 ms, pycparser 15 ms, model and checks 13 ms (it was 84 ms before the
translate-time work of issue 14).  So speed favours cpp; what decides is also that cpp
is the reference implementation of the standard's macro rules, and that its ``-dD`` output
shows where every macro is defined, which the "in expansion of macro" notes use.  Both emit
line markers, so line mapping is equally exact; columns inside a line are recovered here by
aligning the tokens of each expanded line with its original line.  Every machine that runs
serial/OpenMP kernels has cpp anyway.
Where there is no cpp (and ``OKL_CPP`` names none, or says ``pcpp``), pcpp runs in its place
behind cpp's command line and output (okl/parser/cpp/pcpp.py); ``oklc info`` says which.

What this stage does beyond plain ``cpp``:

* ``@directive("#...")`` is turned into a real directive line before cpp runs;
* ``#include <...>`` lines are passed through to the generated code (as OCCA does) instead
  of being searched for: device code cannot use the host's libc headers;
* ``#pragma`` arguments get their object-like macros expanded (cpp leaves unknown pragmas
  untouched, but ``#pragma unroll p_Nq`` must reach the backend compiler as
  ``#pragma unroll 8``);
* predefined macros ``__OKL__``, ``OKL_MODE`` and, for GPU modes, ``OKL_USING_GPU``;
* compiler spellings of C99 keywords (``__restrict__``, ``__inline__``, ...) are defined to
  the keywords, which pycparser knows;
* cpp runs in the kernel's folder, so ``#include "x.h"`` finds headers next to the kernel;
* what OCCA's lenient preprocessor accepts and has one evident meaning (``#if X=1``, a
  missing ``#endif``, a trailing empty macro argument) is repaired with a warning
  (cpp_repairs).
"""

from __future__ import annotations

import bisect
import operator
import os
import re
from dataclasses import field
from itertools import accumulate, count, repeat
from typing import TYPE_CHECKING, NoReturn

from ... import limits, modes
from ...errors import Diagnostic, Diagnostics, SourceLoc, TranslationError, note
from ...record import record
from ..linemarker import line_directive, unescape
from ..source import STRING_NAME, decode, not_a_file, not_utf8_warning
from . import inline as cppinline
from .defines import define_texts
from .pcpp import preprocessor_command

if TYPE_CHECKING:  # the cpp subprocess's modules load where okl's own preprocessor declines
    from .repairs import CppRepairs

#: Compiler spellings of C99 keywords that pycparser does not know, mapped to the keyword.
C_SPELLINGS = {"__restrict__": "restrict", "__restrict": "restrict", "__inline__": "inline",
               "__inline": "inline", "__forceinline__": "inline", "__volatile__": "volatile",
               "__const": "const", "__signed__": "signed", "__extension__": ""}

_TOKEN = re.compile(r"""[A-Za-z_]\w*|\d[\w.]*(?:[eEpP][+-]\d+)?\w*|"(?:\\.|[^"\\])*"|"""
                    r"""'(?:\\.|[^'\\])*'|->|\+\+|--|<<=?|>>=?|[<>=!&|^+\-*/%]=|&&|\|\||\S""")
_MARKER = re.compile(r'^# (\d+) "((?:\\.|[^"\\])*)"')
#: What _prepare rewrites: <system> includes and @directive("#..."), outside comments and
#: string literals (matched only to be skipped).
_PREPARE = re.compile(
    r"""(?P<include>^[ \t]*\#[ \t]*include[ \t]*(?P<header><[^>\n]*>))"""
    r"""|(?P<directive>@\s*directive\s*\(\s*"(?P<text>\s*\#(?:\\.|[^"\\])*)"\s*\))"""
    r"""|//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'""", re.M | re.S)
#: a line of cpp's -H output; a message about "./k.okl" or "../k.okl" also starts with a dot
#: (pattern texts: ``re`` compiles them where cpp runs, which most translations never do)
_INCLUDE_DEPTH = r"\.+ "
_CPP_MESSAGE = r"^(.*?):(\d+):(?:(\d+):)? (fatal error|error|warning|note): (.*)$"
_PASSTHROUGH = "__okl_passthrough_include"
#: what decoding with "surrogateescape" makes of bytes that are not UTF-8
_UNDECODED = re.compile("[\udc80-\udcff]")
#: a line of the preprocessor's output that starts with '#' after white space (the match
#: starts at the newline before it: ``re`` skips to each newline in C)
_DIRECTIVE_LINE = re.compile("\n[^\\S\n]*#")
#: cpp runs again after each repair (cpp_repairs); a repair can expose another one in a
#: group that the failed condition had skipped
MAX_REPAIR_ROUNDS = 8
#: Columns are found by aligning an expanded line's tokens with its original's (difflib, whose
#: time grows with the square of the tokens): longer lines keep the expanded column
MAX_ALIGNED_TOKENS = 2000


@record
class Expanded:
    """Preprocessed text plus everything needed to point back into the original files."""

    text: str
    origins: list[tuple[str, int]]  # per expanded line (index 0 = line 1): (file, line)
    files: dict[str, list[str]] = field(default_factory=dict)  # original lines per file
    system_includes: list[str] = field(default_factory=list)  # "<math.h>", ... in order
    dependencies: list[str] = field(default_factory=list)  # files read, for cache keys
    warnings: list = field(default_factory=list)  # cpp's warnings, as Diagnostics
    #: macro name -> (file, line, "NAME value") of its last #define ("<command-line>" for -D)
    macros: dict[str, tuple[str, int, str]] = field(default_factory=dict)

    def source_line(self, file: str, line: int) -> str:
        lines = self.files.get(file)
        if lines is None:
            lines = _read_lines(file)
            self.files[file] = lines
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def locate(self, line: int, col: int) -> SourceLoc:
        """Map a (line, col) of the expanded text to the original file position."""
        cache = self.__dict__.setdefault("_located", {})
        loc = cache.get((line, col))
        if loc is None:
            loc = cache[(line, col)] = self._locate(line, col)
        return loc

    def origin(self, line: int) -> tuple[str, int]:
        """The original (file, line) of a line of the expanded text: what :meth:`locate`
        says without finding the column (the costly part: it aligns the line's tokens)."""
        if not 0 < line <= len(self.origins):
            return self.origins[-1] if self.origins else (STRING_NAME, 1)
        return self.origins[line - 1]

    def _locate(self, line: int, col: int) -> SourceLoc:
        file, oline = self.origin(line)
        if not 0 < line <= len(self.origins):
            return SourceLoc(file, oline, 1, self.source_line(file, oline))
        original = self.source_line(file, oline)
        expanded = self.text_lines[line - 1]
        ocol, macro = _map_column(expanded, original, col, self.macros)
        return SourceLoc(file, oline, ocol, original,
                         (macro, self.macro_definition(macro)) if macro else None)

    def macro_definition(self, name: str) -> SourceLoc | None:
        """Where macro ``name`` is defined; line 0 and the -D option for command-line macros,
        None for unknown names."""
        file, line, definition = self.macros.get(name, ("<", 0, ""))
        if file == "<command-line>":
            head, _, value = definition.partition(" ")
            return SourceLoc(file, 0, 0, f"-D {head}={value}")
        if file.startswith("<"):
            return None
        text = self.source_line(file, line)
        m = re.match(r"\s*#\s*define\s+", text)
        return SourceLoc(file, line, m.end() + 1 if m else 1, text)

    @property
    def text_lines(self) -> list[str]:
        cached = self.__dict__.get("_lines")
        if cached is None:
            cached = self.text.split("\n")
            self.__dict__["_lines"] = cached
        return cached


def preprocess(source: str, filename: str = STRING_NAME, *, mode: str = "serial",
               defines: dict | None = None, include_dirs=(), inline: bool | None = None
               ) -> Expanded:
    """Preprocess OKL ``source`` for backend ``mode``; raise TranslationError on cpp errors.

    okl's in-process preprocessor (okl/parser/cpp/inline.py) takes the file first unless
    ``inline`` is False or, by default, ``OKL_CPP`` names a preprocessor; cpp runs where it
    declines."""
    row = modes.BY_NAME.get(mode)  # OKL_MODE is spelt as OCCA does: #if code keeps working
    given = [("__OKL__", "1"), ("OKL_MODE", f'"{row.macro if row else mode}"')]
    if row is not None and row.gpu:
        given += [("OKL_USING_GPU", "1"), ("OCCA_USING_GPU", "1")]
    given += list(C_SPELLINGS.items())
    given += list(define_texts(defines).items())
    # cpp reads stdin, whose directory is its working directory: running it in the kernel's
    # folder makes #include "x.h" look next to the kernel first, as for a file on disk.
    base = os.path.dirname(os.path.abspath(filename)) if filename[:1] != "<" else ""
    if not os.path.isdir(base):  # source from memory, named after no real folder
        base = os.getcwd()
    original = {filename: source.split("\n")}
    _check_size(source, filename, original[filename])
    _check_includes(source, filename, base, include_dirs, original[filename])
    names = _FileNames(filename, base)
    command = preprocessor_command()  # none at all: say so, whoever would have run
    if inline if inline is not None else not os.environ.get("OKL_CPP", "").strip():
        output = cppinline.expand(_prepare(source, filename), given)
        if output is not None:
            expanded = _collect(output, filename, names)
            expanded.files.update(original)
            return expanded
    # cpp, or pcpp behind cpp's conventions where there is none (okl/parser/cpp/pcpp.py);
    # GCC's cpp is started as the cc1 it runs (okl/parser/cpprun.cpp_command)
    from .repairs import CppRepairs
    from .run import cpp_command, run_cpp

    head, tail = cpp_command(command)
    args = list(head)
    for d in include_dirs:
        args += ["-I", os.path.abspath(os.fspath(d))]
    args += [f"-D{name}={value}" for name, value in given]
    repairs = CppRepairs(source, filename)
    where = SourceLoc(filename, 1, 1, original[filename][0])
    for _ in range(MAX_REPAIR_ROUNDS):
        prepared = _prepare(repairs.source, filename).encode("utf-8", "surrogateescape")
        proc = run_cpp(args + tail, prepared, base, where)
        messages, deps = _parse_stderr(proc.stderr.decode("utf-8", "replace"), names,
                                       original, repairs)
        if proc.returncode == 0 and not messages.errors or not repairs.apply(messages.errors):
            break
    messages.items[:0] = repairs.warnings
    if proc.returncode != 0 or messages.errors:
        if not messages.errors:  # cpp said nothing okl could place (e.g. out of memory)
            said = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            messages.error(f"preprocessor failed (exit {proc.returncode})"
                           + (f": {said[-1][:300]}" if said else ""), where,
                           hint="simplify the macros of this file (a macro that expands to "
                                "itself many times over exhausts the preprocessor)")
        raise TranslationError(diagnostics=messages.items)
    expanded = _collect(proc.stdout.decode("utf-8", "surrogateescape"), filename, names)
    expanded.files.update(original)
    expanded.dependencies = deps
    expanded.warnings = messages.warnings + expanded.warnings
    return expanded


def _check_size(source: str, filename: str, lines: list[str]) -> None:
    """Refuse source over :data:`okl.limits.SOURCE_BYTES` before cpp sees it."""
    cap = int(limits.SOURCE_BYTES)
    if len(source) > cap:
        raise TranslationError(diagnostics=[Diagnostic(
            "error", f"the source is larger than {cap} {limits.SOURCE_BYTES.what}",
            SourceLoc(filename, 1, 1, lines[0]),
            hint=f"set {limits.SOURCE_BYTES.env} to raise the limit")])


_INCLUDE = re.compile(r"""^[ \t]*\#[ \t]*include[ \t]*(?:"([^"\n]+)"|<([^>\n]+)>)""", re.M)


def _check_includes(source: str, filename: str, base: str, include_dirs,
                    lines: list[str]) -> None:
    """Refuse an ``#include`` of a FIFO, a device or a directory before cpp or the compiler
    opens it: ``#include </dev/zero>`` made the compiler read until its memory ran out, and
    a FIFO blocks a reader until a writer comes.  Checked where the file resolves from the
    kernel's own folder, the include folders, or an absolute path (headers those include
    are cpp's, under its time and memory limits)."""
    if "include" not in source:
        return
    for m in _INCLUDE.finditer(source):
        name = m.group(1) or m.group(2)
        if "\0" in name:  # no file has such a name (the OS refuses to look one up)
            _refuse_include(source, filename, lines, m.start(),
                            "#include of a name with a NUL byte in it",
                            "write the header's file name without the NUL character")
        folders = ([base] if m.group(1) else []) + [os.fspath(d) for d in include_dirs]
        candidates = [name] if os.path.isabs(name) else \
            [os.path.join(d, name) for d in folders]
        for path in candidates:
            try:
                mode = os.stat(path).st_mode
            except OSError:
                continue
            kind = not_a_file(mode)
            if kind:
                _refuse_include(source, filename, lines, m.start(),
                                f"#include of {path}: {kind}, not a regular file",
                                "include a header file; a FIFO or device would block or "
                                "never end")
            break


def _refuse_include(source: str, filename: str, lines: list[str], at: int, message: str,
                    hint: str) -> NoReturn:
    """The error for the ``#include`` line starting at offset ``at`` of ``source``."""
    line = source.count("\n", 0, at) + 1
    col = at - (source.rfind("\n", 0, at) + 1) + 1
    raise TranslationError(diagnostics=[Diagnostic(
        "error", message, SourceLoc(filename, line, col, lines[line - 1]), hint=hint)])


class _FileNames:
    """Names of included files as the user sees them: relative to the working directory when
    the kernel was named by a relative path, absolute otherwise (cpp ran in ``base``)."""

    def __init__(self, filename: str, base: str) -> None:
        self.filename = filename
        self.base = base
        self.relative = not os.path.isabs(filename)

    def __call__(self, name: str) -> str:
        if name == self.filename or name.startswith("<"):
            return name
        if not name:  # `#line N ""` in the source: positions stay in the kernel's own file
            return self.filename
        path = os.path.normpath(os.path.join(self.base, name))
        if self.relative:
            rel = os.path.relpath(path)
            if not rel.startswith(".."):
                return rel
        return path


def _prepare(source: str, filename: str) -> str:
    """Rewrite @directive and <system> includes; pin the file name with a #line."""

    def rewrite(m: re.Match) -> str:
        if m.group("include"):
            return f"#pragma {_PASSTHROUGH} {m.group('header')}"
        if not m.group("directive"):
            return m.group(0)
        try:
            text = bytes(m.group("text"), "utf-8").decode("unicode_escape").strip()
        except UnicodeDecodeError:  # a broken escape: cpp reports the directive as written
            text = m.group("text").strip()
        line = source.count("\n", 0, m.start()) + 1
        col = m.start() - (source.rfind("\n", 0, m.start()) + 1)
        # the directive on lines of its own, then back to this line with its columns kept
        return (f"\n{text}\n{line_directive(line, filename)}\n"
                + " " * (col + m.end() - m.start()))

    if "include" not in source and "directive" not in source:
        # nothing to rewrite: the search for one (it tries the pattern at every character,
        # none of its alternatives being first) was 1-1.5 % of a kernel's translate
        return f"{line_directive(1, filename)}\n" + source
    return f"{line_directive(1, filename)}\n" + _PREPARE.sub(rewrite, source)


def _parse_stderr(stderr: str, names: _FileNames, original: dict[str, list[str]],
                  repairs: CppRepairs) -> tuple[Diagnostics, list[str]]:
    diags = Diagnostics()
    deps: list[str] = []
    for raw in stderr.splitlines():
        if re.match(_INCLUDE_DEPTH, raw):  # -H output: ". path", ".. path" (dots, a space)
            deps.append(os.path.join(names.base, raw.split(" ", 1)[1]))
            continue
        m = re.match(_CPP_MESSAGE, raw)
        if not m:
            continue
        file, line, col, sev, msg = m.groups()
        file = names(file)
        lines = original[file] if file in original else _read_lines(file)
        col = int(col or 1)
        if file == repairs.filename:
            col = repairs.original_col(int(line), col)
        loc = SourceLoc(file, int(line), col, _line_of(lines, int(line)))
        if sev == "note":
            if diags.items:
                diags.items[-1].notes.append(note(msg, loc))
        elif sev == "warning":
            diags.warning(msg, loc)
        else:
            hint = ("add its folder with -I DIR (oklc) or include_dirs=[...] (Python)"
                    if "No such file" in msg else "")
            diags.error(msg, loc, hint=hint)
    return diags, deps


def _collect(output: str, filename: str, names=lambda name: name) -> Expanded:
    """Strip line markers and #define/#undef lines; expand macros in #pragma arguments."""
    lines: list[str] = []
    origins: list[tuple[str, int]] = []
    macros: dict[str, str] = {}
    definitions: dict[str, tuple[str, int, str]] = {}
    system_includes: list[str] = []
    file, line = filename, 1
    not_utf8: dict[str, Diagnostic] = {}
    raws = output.split("\n")
    # the lines read one by one below (markers, directives, bytes that are not UTF-8); the
    # others (most of a kernel) are kept as they are, a run at a time
    ends = list(map(operator.add, accumulate(map(len, raws)), count()))  # each line's \n
    stops = sorted({bisect.bisect_left(ends, m.start() + 1)
                    for m in _DIRECTIVE_LINE.finditer(output)} | {0})
    if _UNDECODED.search(output):  # every line read (a header that is not UTF-8: rare)
        stops = list(range(len(raws)))
    stops.append(len(raws))
    at = 0
    for stop in stops:
        if at < stop:  # lines at..stop-1: plain
            if file == filename or not file.startswith("<"):
                lines += raws[at:stop]
                origins += zip(repeat(file), range(line, line + stop - at))
            line += stop - at
        if stop == len(raws):
            break
        raw = raws[stop]
        at = stop + 1
        m = _MARKER.match(raw)
        if m:
            line, file = int(m.group(1)), names(unescape(m.group(2)))
            continue
        if _UNDECODED.search(raw):  # bytes of a header that is not UTF-8: see source.py
            raw = _latin1(raw, file, line, not_utf8)
        stripped = raw.lstrip()
        if stripped.startswith("#define ") or stripped.startswith("#undef "):
            _track_macro(stripped, macros)
            if stripped.startswith("#define "):
                name = re.match(r"#define\s+(\w+)", stripped)
                if name:
                    definitions[name.group(1)] = (file, line, stripped[8:].strip())
            raw = ""
        elif stripped.startswith("#pragma"):
            if _PASSTHROUGH in stripped:
                system_includes.append(stripped.split(_PASSTHROUGH, 1)[1].strip())
                raw = ""
            else:
                raw = _expand_pragma(raw, macros)
        if file == filename or not file.startswith("<"):
            lines.append(raw)
            origins.append((file, line))
        line += 1
    return Expanded("\n".join(lines), origins, system_includes=system_includes,
                    macros=definitions, warnings=list(not_utf8.values()))


def _latin1(raw: str, file: str, line: int, warned: dict[str, Diagnostic]) -> str:
    """A line of cpp's output that holds bytes that are not UTF-8, read as Latin-1; the first
    such line gets a warning (later ones are mostly macros expanding those bytes elsewhere)."""
    data = raw.encode("utf-8", "surrogateescape")
    text = data.decode("latin-1")
    bad = _UNDECODED.search(raw)  # (what sent the line here)
    if not warned and bad is not None:
        offset = len(raw[:bad.start()].encode("utf-8", "surrogateescape"))
        warning = not_utf8_warning(text, offset, file, data[offset])
        loc = warning.loc
        assert loc is not None  # the warning names the byte's place
        warned[file] = Diagnostic(warning.severity, warning.message,
                                  SourceLoc(file, line, loc.col, loc.text), hint=warning.hint)
    return text


def _track_macro(directive: str, macros: dict[str, str]) -> None:
    parts = directive.split(None, 2)
    if len(parts) < 2:
        return
    name = parts[1]
    if parts[0] == "#undef":
        macros.pop(name, None)
    elif "(" not in name:  # object-like macros only
        macros[name] = parts[2] if len(parts) > 2 else ""


def _expand_pragma(line: str, macros: dict[str, str]) -> str:
    """Expand the object-like macros in a ``#pragma``'s arguments as cpp would: a macro is
    not expanded again inside its own expansion, and an expansion that grows past
    ``_PRAGMA_MAX`` characters (a macro bomb) leaves the line as written."""
    head, _, rest = line.partition("pragma")

    def expand(text: str, active: frozenset) -> str:
        def sub(m: re.Match) -> str:
            word = m.group(0)
            if word in macros and word not in active:
                return expand(macros[word], active | {word})
            return word
        out = _IDENT.sub(sub, text)
        if len(out) > _PRAGMA_MAX:
            raise _TooLong
        return out

    try:
        return head + "pragma" + expand(rest, frozenset())
    except (_TooLong, RecursionError):
        return line


class _TooLong(Exception):
    pass


_IDENT = re.compile(r"[A-Za-z_]\w*")
_PRAGMA_MAX = 4096


def _map_column(expanded: str, original: str, col: int,
                macros: dict | None = None) -> tuple[int, str | None]:
    """Column in ``original`` of the token that covers ``col`` in ``expanded``, and the name of
    the macro it came from when it is not a token of the original line (then the column is
    that of the macro's name)."""
    if expanded == original:
        return col, None
    exp_toks = [(m.start() + 1, m.group(0)) for m in _TOKEN.finditer(expanded)]
    org_toks = [(m.start() + 1, m.group(0)) for m in _TOKEN.finditer(original)]
    if not exp_toks or not org_toks:
        return col, None
    if len(exp_toks) + len(org_toks) > MAX_ALIGNED_TOKENS:  # difflib is quadratic
        return min(col, len(original) + 1), None
    index = 0
    for i, (start, _) in enumerate(exp_toks):
        if start <= col:
            index = i
    exp_words, org_words = [t for _, t in exp_toks], [t for _, t in org_toks]
    if exp_words == org_words:  # only the spacing differs: difflib's one opcode, directly
        return org_toks[index][0] + (col - exp_toks[index][0]), None
    import difflib  # here: most translations never align a line (locations are deferred)

    matcher = difflib.SequenceMatcher(None, exp_words, org_words, autojunk=False)
    tag, i1, _, j1, j2 = next((op for op in matcher.get_opcodes()
                               if op[1] <= index < op[2] or op[1] == op[2] == index),
                              ("replace", index, index, len(org_toks) - 1, len(org_toks)))
    if tag == "equal":
        return org_toks[j1 + index - i1][0] + (col - exp_toks[index][0]), None
    guess = max(min(j1 - (j1 == j2), len(org_toks) - 1), 0)
    names = [t for _, t in org_toks]
    uses = [k for k, t in enumerate(names) if macros and t in macros]
    if not uses:
        return org_toks[guess][0], None
    if j2 - j1 == 1 and j1 in uses:  # exactly one (object-like) macro was replaced
        k = j1
    else:  # the outermost macro call whose parentheses hold the spot, else the one before it
        calls = [k for k in uses if _call_end(names, k) >= guess >= k]
        k = calls[0] if calls else max((u for u in uses if u <= guess), default=uses[0])
    return org_toks[k][0], names[k]


def _call_end(names: list[str], k: int) -> int:
    """Index of the ')' closing a macro call ``NAME(...)`` at k (k itself if no call)."""
    if k + 1 >= len(names) or names[k + 1] != "(":
        return k
    depth = 0
    for j in range(k + 1, len(names)):
        depth += {"(": 1, ")": -1}.get(names[j], 0)
        if depth == 0:
            return j
    return len(names) - 1


def _read_lines(path: str) -> list[str]:
    try:
        with open(path, "rb") as f:
            return decode(f.read(int(limits.SOURCE_BYTES)), path)[0].split("\n")
    except OSError:
        return []


def _line_of(lines: list[str], line: int) -> str:
    return lines[line - 1] if 0 < line <= len(lines) else ""
