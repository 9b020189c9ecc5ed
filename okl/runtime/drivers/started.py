"""A backend compile started on a thread of its own as soon as the backend source exists.

A cold build is translation, then the compiler, then loading.  What the runtime still needs
after translation -- the kernel specs with their launch code, the translation cache entry --
does not need the compiler's output, and NVRTC leaves Python free while it runs (CuPy's
binding releases the GIL: on an H200 host a Python loop kept most of its speed beside a
compile).  So on cuda and hip (NVIDIA) NVRTC starts here first and those steps run beside it;
:meth:`Started.result` then waits for it.  What a cold build costs beyond NVRTC is the
translation up to the source, plus the load.  (The C and OpenCL compilers run 0.1-3 s,
against 1-2 ms that could run beside them: their drivers start them in ``build``.)

The binary's cache entry (``then``) is written on the compile thread beside the load and
the launch set-up.  The two threads take turns at the GIL there (the write is some
twenty-five system calls): on an H200 host a fresh module's load took 0.6-1.0 ms beside it
and 0.5-0.6 ms alone.  Written after the set-up on the caller's thread instead, the write's
0.7-1.0 ms came on top: the part of a cold build after NVRTC went from 1.7-1.9 to 1.7-2.3 ms
(benchmarks/results/h200-2026-11-29-cold-build-cachewrite.txt).

The compile reports as it would have on the caller's thread: its exception is raised by
:meth:`Started.result`.  A thread nobody waits for (the caller failed in between) ends by
itself; it writes no cache entry (the caller stores what it loaded).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Started(Generic[T]):
    """``work()`` running on its own thread; ``key`` names what it builds (the build cache
    key), so that the backend takes its result only for the build it was started for.
    ``then(result)``, if given, runs on that thread once the result is out (storing it in the
    cache while the caller loads it); :meth:`close` waits for it."""

    def __init__(self, key: str, work: Callable[[], T],
                 then: Callable[[T], None] | None = None) -> None:
        self.key = key
        self._value: T | None = None
        self._error: BaseException | None = None
        self._then_error: BaseException | None = None
        self._taken = False
        self._out = threading.Event()
        # a daemon: an interpreter that exits while a compile runs does not wait for it
        self._thread = threading.Thread(target=self._run, args=(work, then),
                                        name="okl-compile", daemon=True)
        self._thread.start()

    def _run(self, work: Callable[[], T], then: Callable[[T], None] | None) -> None:
        try:
            self._value = work()
        except BaseException as e:  # raised again on the thread that waits
            self._error = e
        finally:
            self._out.set()
        # the caller, woken, needs the GIL to go on: give it up once here, or ``then``'s
        # Python would keep it until its first system call (0.6 ms on an H200 host)
        time.sleep(0)
        if self._error is None and then is not None:
            try:
                then(self._value)  # type: ignore[arg-type]
            except BaseException as e:
                self._then_error = e

    def result(self) -> T:
        """What ``work()`` returned, once it has; what it raised, raised here."""
        self._taken = True
        self._out.wait()
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]

    def close(self) -> None:
        """Wait for ``then`` too, where the result was taken; what it raised, raised here.
        (A compile whose result nobody took -- another process cached the binary meanwhile
        -- runs out on its own: nothing waits for it.)"""
        if not self._taken:
            return
        self._thread.join()
        if self._then_error is not None:
            raise self._then_error
