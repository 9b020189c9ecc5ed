"""Repairs for the preprocessor errors that OCCA's own preprocessor lets through.

Real kernels (benchParanumal, nekRS) contain preprocessor input that GCC's cpp rejects but
OCCA accepts.  Where the text has one evident meaning, okl repairs the kernel file (never an
included header) and cpp runs again; each repair becomes a warning that says what okl read
and what OCCA does.  Repairs are driven by cpp's own errors, so correct input is never
touched and only the conditions cpp actually evaluated are rewritten:

* ``#if X=1``: cpp rejects ``=``.  OCCA's preprocessor (``preprocessor_t::lineIsTrue`` in
  ``src/occa/internal/lang/preprocessor.cpp``) parses the line as a C expression and
  evaluates ``=`` with ``primitive::assign``, so the condition takes the value of its right
  side (``X=1`` is always true).  The evident meaning is ``X==1``: okl inserts the second
  ``=`` and maps the columns of later messages on that line back to the original.
* a missing ``#endif``: OCCA never checks its condition stack at the end of the input, so
  the open groups silently end with the file.  okl appends the ``#endif`` lines.
* ``F(a,b,)`` for a two-parameter macro: OCCA's ``macro_t::loadArgs`` (``macro.cpp``) starts
  a new argument only when a token follows the ',', so a trailing empty argument vanishes.
  okl blanks that ','.
"""

from __future__ import annotations

import re
from dataclasses import field

from ...errors import Diagnostic, SourceLoc, note
from ...record import record

_ASSIGN_MSG = 'token "=" is not valid in preprocessor expressions'
_UNTERMINATED = re.compile(r"unterminated #(\w+)$")
_EXTRA_ARG = re.compile(r'macro "(\w+)" passed (\d+) arguments, but takes just (\d+)$')
_IF_LINE = re.compile(r"[ \t]*#[ \t]*(?:el)?if\b")
_CONDITIONAL = re.compile(r"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b")
#: a lone '=' (group 1) on a directive line; comments, literals and two-character
#: operators are matched only to be skipped
_LONE_ASSIGN = re.compile(r"""//.*|/\*.*?\*/|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'"""
                          r"""|[=!<>]=|(=)""")


@record
class CppRepairs:
    """The kernel text as repaired so far, the warnings that say so, and where characters
    were inserted (line -> 1-based columns in the repaired line) to map cpp's columns back."""

    source: str
    filename: str
    warnings: list[Diagnostic] = field(default_factory=list)
    shifts: dict[int, list[int]] = field(default_factory=dict)
    original: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.original = self.source.split("\n")

    def original_col(self, line: int, col: int) -> int:
        """The column in the original line of column ``col`` of repaired line ``line``."""
        return col - sum(1 for c in self.shifts.get(line, ()) if c <= col)

    def apply(self, errors: list[Diagnostic]) -> bool:
        """Repair what ``errors`` (cpp's, located in the original text) allow; True when
        anything changed, so that cpp must run again."""
        lines = self.source.split("\n")
        original = list(lines)
        unterminated = 0
        changed = False
        for d in errors:
            loc = d.loc
            if loc is None or loc.file != self.filename or \
                    not 0 < loc.line <= len(original) or \
                    lines[loc.line - 1] != original[loc.line - 1]:
                continue  # a header, or a line this round already rewrote
            if d.message == _ASSIGN_MSG:
                changed |= self._assignment(lines, loc.line)
            elif m := _UNTERMINATED.match(d.message):
                unterminated += self._unterminated(original, m.group(1), loc.line)
            elif m := _EXTRA_ARG.match(d.message):
                changed |= self._extra_argument(lines, d, m, loc)
        self.source = "\n".join(lines) + "\n#endif" * unterminated + "\n" * bool(unterminated)
        self.warnings.sort(key=lambda w: (w.loc.line, w.loc.col) if w.loc else (0, 0))
        return changed or bool(unterminated)

    def _loc(self, line: int, col: int) -> SourceLoc:
        text = self.original[line - 1] if 0 < line <= len(self.original) else ""
        return SourceLoc(self.filename, line, col, text)

    def _assignment(self, lines: list[str], line: int) -> bool:
        text = lines[line - 1]
        if not _IF_LINE.match(text):
            return False
        spots = [m.start(1) for m in _LONE_ASSIGN.finditer(text) if m.group(1)]
        for k, p in enumerate(spots):
            left = re.search(r"(\w+)\s*$", text[:p])
            right = re.match(r"\s*(\w+)(.*)", text[p + 1:])
            lhs = left.group(1) if left else ""
            rhs = right.group(1) if right else ""
            rest = re.sub(r"//.*|/\*.*?\*/", "", right.group(2)).strip() if right else "?"
            always = " (always true here)" if rhs.isdigit() and int(rhs) and not rest else ""
            self.warnings.append(Diagnostic(
                "warning", f"'=' in a #if condition: okl reads '{lhs}={rhs}' as '{lhs}=={rhs}'; "
                           f"OCCA evaluates it as an assignment whose value is the right side"
                           f"{always}", self._loc(line, p + 1),
                hint="write '==' to compare"))
            self.shifts.setdefault(line, []).append(p + k + 2)
        for p in reversed(spots):
            text = text[:p] + "==" + text[p + 1:]
        lines[line - 1] = text
        return bool(spots)

    def _unterminated(self, original: list[str], kind: str, line: int) -> int:
        """cpp's "unterminated #``kind``" at ``line``: a warning, and 1 #endif to add (0
        where the line is not a conditional)."""
        text = original[line - 1]
        opened = _CONDITIONAL.match(text)
        if not opened:
            return 0
        notes = []
        if kind in ("else", "elif"):
            branch = _last_branch(original, line)
            if branch:
                notes.append(note(f"its #{kind} is here", self._loc(branch, 1 + _hash(
                    original[branch - 1]))))
        self.warnings.append(Diagnostic(
            "warning", f"#{opened.group(1)} without #endif: okl closes it at the end of the "
                       "file (OCCA does the same without a word)",
            self._loc(line, 1 + _hash(text)), notes, hint="add the missing '#endif'"))
        return 1

    def _extra_argument(self, lines: list[str], d: Diagnostic, said: re.Match[str],
                        loc: SourceLoc) -> bool:
        """cpp's "macro passed N arguments, takes N-1" (``said``) at ``loc``: an empty extra
        argument dropped, with a warning."""
        name, passed, takes = said.groups()
        if int(passed) != int(takes) + 1:
            return False
        source = "\n".join(lines)
        offset = sum(len(x) + 1 for x in lines[:loc.line - 1]) + loc.col - 1
        if source[offset:offset + 1] != ")":
            return False
        comma = _comma_before(source, offset)
        if comma is None:
            return False
        line = source.count("\n", 0, comma) + 1
        col = comma - source.rfind("\n", 0, comma)
        lines[line - 1] = lines[line - 1][:col - 1] + " " + lines[line - 1][col:]
        self.warnings.append(Diagnostic(
            "warning", f"macro '{name}' takes {takes} argument{'s' * (int(takes) != 1)} but is "
                       f"passed an empty extra one: okl drops it (OCCA drops it without a "
                       "word)", self._loc(line, col), d.notes,
            hint="remove this ','"))
        return True


def _hash(text: str) -> int:
    return text.index("#") if "#" in text else 0


def _last_branch(lines: list[str], opening: int) -> int | None:
    """Line of the last #else/#elif of the group opened at line ``opening``."""
    depth, found = 0, None
    for i in range(opening, len(lines)):
        m = _CONDITIONAL.match(lines[i])
        if not m:
            continue
        kind = m.group(1)
        if kind.startswith("if"):
            depth += 1
        elif kind == "endif":
            depth -= 1
        elif depth == 0:
            found = i + 1
    return found


def _comma_before(source: str, end: int) -> int | None:
    """Offset of the ',' before ``end`` when only blanks and comments separate them."""
    i = end - 1
    while i >= 0:
        if source[i].isspace():
            i -= 1
        elif source.endswith("*/", 0, i + 1):
            start = source.rfind("/*", 0, i - 1)
            if start < 0:
                return None
            i = start - 1
        else:
            return i if source[i] == "," else None
    return None
