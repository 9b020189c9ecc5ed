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

from .. import env
from ..parser.linemarker import unescape

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


def map_log(log: str, source: str = "", limit: int = 30) -> str:
    table = line_table(source) if source else []

    def okl_position(m: re.Match) -> str:
        line = int(m.group(1))
        where = table[line - 1] if 0 < line <= len(table) else None
        if where is None:
            return m.group(0)
        col = f":{m.group(2)}" if m.group(2) else ""
        return f"{where[0]}:{where[1]}{col}"

    lines = [_GENERATED.sub(okl_position, line) for line in log.rstrip().split("\n")
             if line.strip()]
    shown = "\n".join("  " + line for line in lines[:limit])
    if len(lines) > limit:
        shown += f"\n  ... {len(lines) - limit} more lines in BuildError.log"
    return shown


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
        if self._text.strip() and env.flag("OKL_VERBOSE"):
            print(self._text, end="", file=sys.stderr, flush=True)
        return False

    def text(self) -> str:
        return self._text
