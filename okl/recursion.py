"""Room for the recursion of a deep translation, shared by every thread of the process.

pycparser's parser and generator recurse once or several times per nested construct (about
nine Python frames per level of parentheses), so a kernel within okl's nesting limit
(okl.limits.NESTING, 256 levels) needs more frames than CPython's default limit of 1000.
CPython has *one* recursion limit per interpreter, not one per thread: raising it around one
translation and restoring it afterwards, as okl once did, let one thread lower the limit
under another thread's deep parse (which then failed with "nests too deeply") and, when two
translations overlapped, left the raised limit behind for good.

:func:`deep_recursion` counts the translations that need the room instead: the first raises
the limit (only ever raises it), the last one out puts back the limit it found -- unless the
program changed the limit in the meantime, which is then the program's to keep.  While no
okl translation runs, the process's limit is the program's own; while one runs, no thread's
limit is ever lowered, so no valid kernel in another thread can fail.
"""

from __future__ import annotations

import _thread
import sys
from collections.abc import Iterator
from contextlib import contextmanager

#: Python frames a deep translation may use (pycparser's parse of okl.limits.NESTING levels
#: needs about 2,300; the rest is for long operator chains, which the generator recurses on).
ROOM = 20000

_lock = _thread.allocate_lock()  # threading.Lock, without importing threading
_users = 0
_found: int | None = None  # the limit before the first user raised it
_raised: int | None = None  # the limit the first user set (None: it was already high enough)


@contextmanager
def deep_recursion() -> Iterator[None]:
    """Run the body with at least :data:`ROOM` frames of recursion limit (see the module)."""
    global _users, _found, _raised
    with _lock:
        if _users == 0:
            _found = sys.getrecursionlimit()
            _raised = ROOM if _found < ROOM else None
            if _raised is not None:
                sys.setrecursionlimit(_raised)
        _users += 1
    try:
        yield
    finally:
        with _lock:
            _users -= 1
            if _users == 0:
                if _raised is not None and sys.getrecursionlimit() == _raised:
                    try:
                        sys.setrecursionlimit(_found)  # type: ignore[arg-type]
                    except RecursionError:  # this thread is deeper than the old limit: a
                        pass  # caller's own deep recursion, which the old limit would end
                _found = _raised = None
