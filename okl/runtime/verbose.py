"""``OKL_VERBOSE=1``: what okl does (compiler commands, cache hits and misses, build times),
through :mod:`logging` on stderr.

Printed to stdout, these lines would mix with a program's own output (``python run.py >
out.txt`` or a pipe); on stderr, through the ``okl`` logger, they stay out of it and an
application can also route, filter or silence them as it does its other logs.  Without
``OKL_VERBOSE`` the same messages are DEBUG records of the ``okl`` logger, printed only if the
application asks for them (``logging.getLogger("okl").setLevel(logging.DEBUG)``).
"""

from __future__ import annotations

import logging
import sys

from .. import env

log = logging.getLogger("okl")


def enabled() -> bool:
    """OKL_VERBOSE is on (a yes/no value, okl.env.flag; read at every call)."""
    return env.flag("OKL_VERBOSE")


class _Stderr(logging.StreamHandler):
    """A handler that writes to whatever ``sys.stderr`` is at the time of the record (a test
    harness or an application may replace it after okl is imported)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)
        self.setFormatter(logging.Formatter("[okl] %(message)s"))
        self.addFilter(lambda record: enabled())

    @property  # type: ignore[override]
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:
        pass


_HANDLER = _Stderr()


def say(message: str) -> None:
    """One line of what okl does: on stderr with ``OKL_VERBOSE``, else a DEBUG record."""
    if not enabled():
        log.debug(message)
        return
    if _HANDLER not in log.handlers:
        log.addHandler(_HANDLER)
    if log.getEffectiveLevel() > logging.INFO:
        log.setLevel(logging.INFO)
    log.info(message)


#: seconds after which a build or a device probe is worth an INFO record (as PyOpenCL logs
#: its program builds): a first build of 3 s, or ``okl.backends()`` probing OpenCL for 2 s,
#: should say where the time went, without OKL_VERBOSE
SLOW_SECONDS = 0.2


def slow(message: str) -> None:
    """Something took long (over :data:`SLOW_SECONDS`): an INFO record of the ``okl`` logger
    (shown where the application shows INFO, e.g. ``logging.basicConfig(level=logging.INFO)``),
    on stderr with ``OKL_VERBOSE``."""
    if enabled():
        say(message)
    else:
        log.info(message)
