"""Compiler logs for BuildError messages, with positions in the .okl file.

The generated sources carry ``#line`` directives, so most compilers already report .okl
positions.  Some do not: NVIDIA's OpenCL compiler reports ``<kernel>:12:16``, lines of the
generated text.  Those are mapped back through the ``#line`` directives here.  Only the first
lines of the log are shown; the whole log stays in ``BuildError.log``.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile

from ..parser.linemarker import unescape
from .verbose import enabled as verbose_enabled

_LINE = re.compile(r'^\s*#line (\d+) "((?:\\.|[^"\\])*)"')
_GENERATED = re.compile(r"<(?:kernel|source|input)>:(\d+)(?::(\d+))?")


def line_table(source: str) -> list[tuple[str, int] | None]:
    """For each line of generated source (index 0 = line 1): its .okl file and line."""
    table: list[tuple[str, int] | None] = []
    where: tuple[str, int] | None = None
    for text in source.split("\n"):
        m = _LINE.match(text)
        if m:
            table.append(None)
            where = (unescape(m.group(2)), int(m.group(1)))
            continue
        table.append(where)
        if where is not None:
            where = (where[0], where[1] + 1)
    return table


#: control characters a log must not carry to the terminal (tabs and newlines are text)
_CONTROL = re.compile(r"[\x01-\x08\x0b-\x1f\x7f]")


def _escape(m: re.Match) -> str:
    return repr(m.group())[1:-1]


def map_log(log: str, source: str = "", limit: int = 30) -> str:
    table = line_table(source) if source else []

    def okl_position(m: re.Match) -> str:
        line = int(m.group(1))
        where = table[line - 1] if 0 < line <= len(table) else None
        if where is None:
            return m.group(0)
        col = f":{m.group(2)}" if m.group(2) else ""
        return f"{where[0]}:{where[1]}{col}"

    log = _CONTROL.sub(_escape, log.replace("\0", ""))  # NVRTC's log ends with its NUL
    lines = [_GENERATED.sub(okl_position, line) for line in log.rstrip().split("\n")
             if line.strip()]
    shown = "\n".join("  " + line for line in lines[:limit])
    if len(lines) > limit:
        shown += f"\n  ... {len(lines) - limit} more lines in BuildError.log"
    return shown


_POSITION = re.compile(r"(?P<file>[^\s:][^:\n]*):(?P<line>\d+):(?P<col>\d+):")
_NAME = re.compile(r"[A-Za-z_]\w*")
#: a name a compiler quotes: 'x', ‘x’ (gcc in a UTF-8 locale) or "x"
_QUOTED = re.compile(r"[\'‘\"`]([A-Za-z_]\w*)[\'’\"`]")


def okl_columns(text: str, generated: str, sources: dict[str, str]) -> str:
    """``text`` (a compiler's log) with its ``FILE:LINE:COL:`` positions in ``sources``
    given columns of the OKL source, not of okl's generated code.

    Why: ``#line`` carries a file and a line but no column, so a C compiler counts columns in
    the generated line (re-indented, loop headers rewritten) -- an undeclared name at column
    109 of the kernel was reported at column 14, beside okl's own warning at 109.  The name
    the compiler means -- the one its message quotes, else the one at its column in each
    generated line of that source line -- gives the column where it occurs once in the
    source line; otherwise the column is left out rather than wrong.  Positions in other
    files (headers okl did not read here) are left as they are."""
    if not sources:
        return text
    generated_lines = generated.split("\n")
    made: dict[tuple[str, int], list[str]] = {}
    for index, where in enumerate(line_table(generated)):
        if where is not None:
            made.setdefault(where, []).append(generated_lines[index])
    source_lines = {name: body.split("\n") for name, body in sources.items()}

    def once(name: str, line: str) -> int | None:
        found = [t.start() for t in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", line)]
        return found[0] + 1 if len(found) == 1 else None

    def fix(log_line: str) -> str:
        m = _POSITION.search(log_line)
        if m is None:
            return log_line
        name, line, col = m.group("file"), int(m.group("line")), int(m.group("col"))
        lines = source_lines.get(name)
        if lines is None or not 0 < line <= len(lines):
            return log_line
        source = lines[line - 1]
        quoted = _QUOTED.findall(log_line[m.end():])
        columns = {c for q in quoted if (c := once(q, source)) is not None}
        if not columns:
            for gen in made.get((name, line), []):
                start = col - 1
                while 0 < start <= len(gen) and (gen[start - 1].isalnum() or
                                                 gen[start - 1] == "_"):
                    start -= 1  # the compiler may point inside the name
                token = _NAME.match(gen, start) if 0 <= start < len(gen) else None
                if token is not None and (c := once(token.group(), source)) is not None:
                    columns.add(c)
        at = f"{name}:{line}:{columns.pop()}:" if len(columns) == 1 else f"{name}:{line}:"
        return log_line[:m.start()] + at + log_line[m.end():]

    return "\n".join(fix(line) for line in text.split("\n"))


class captured_stderr:
    """Catch what the OpenCL compiler prints straight to file descriptor 2 (pocl's clang
    prints "1 error generated."): it belongs in the build log, not on the user's terminal."""

    def __enter__(self):
        self._text = ""
        try:
            sys.stderr.flush()
            self._file = tempfile.TemporaryFile()
            self._saved = os.dup(2)
            os.dup2(self._file.fileno(), 2)
        except (OSError, ValueError, AttributeError):
            self._saved = None
        return self

    def __exit__(self, *exc):
        if self._saved is None:
            return False
        try:
            os.dup2(self._saved, 2)
            os.close(self._saved)
            self._file.seek(0)
            self._text = self._file.read().decode("utf-8", "replace")
            self._file.close()
        except OSError:
            pass
        if self._text.strip() and verbose_enabled():
            print(self._text, end="", file=sys.stderr, flush=True)
        return False

    def text(self) -> str:
        return self._text
