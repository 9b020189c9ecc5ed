"""Compiler logs for BuildError messages.

The generated sources carry ``#line`` directives, so compilers already report positions in the
.okl file; this keeps the first lines of the log (the rest stays in ``BuildError.log``).
"""

from __future__ import annotations


def map_log(log: str, limit: int = 30) -> str:
    lines = [line for line in log.rstrip().split("\n") if line.strip()]
    shown = "\n".join("  " + line for line in lines[:limit])
    if len(lines) > limit:
        shown += f"\n  ... {len(lines) - limit} more lines in BuildError.log"
    return shown
