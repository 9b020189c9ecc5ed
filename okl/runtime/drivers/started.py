"""A backend compile started on a thread of its own as soon as the backend source exists.

A cold build is translation, then the compiler, then loading.  What the runtime still needs
after translation -- the kernel specs with their launch code, the translation cache entry --
does not need the compiler's output, and NVRTC leaves Python free while it runs (CuPy's
binding releases the GIL: on an H200 host a Python loop kept most of its speed beside a
compile).  So on cuda and hip (NVIDIA) NVRTC starts here first and those steps run beside it;
:meth:`Started.result` then waits for it.  What a cold build costs beyond NVRTC is the
translation up to the source, plus the load and the launch set-up, plus the binary's cache
entry.  (The C and OpenCL compilers run 0.1-3 s, against 1-2 ms that could run beside them:
their drivers start them in ``build``.)

The binary's cache entry (``then``) is written by :meth:`Started.close`, on the caller's
thread once it has loaded the binary and set the kernel up, not on the compile thread beside
them: a cache write is some twenty-five system calls, and at each one the two threads took
turns at the GIL -- on an H200 host the cubin's load took 1.0 ms beside the write and 0.1 ms
alone, the write 1.5-1.7 ms instead of about 0.4 (benchmarks/probe_cold_timeline.py).

The compile reports as it would have on the caller's thread: its exception is raised by
:meth:`Started.result`.  A thread nobody waits for (the caller failed in between) ends by
itself, and nothing writes its entry.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Started(Generic[T]):
    """``work()`` running on its own thread; ``key`` names what it builds (the build cache
    key), so that the backend takes its result only for the build it was started for.
    ``then(result)``, if given, is what :meth:`close` does with the result (stores it in the
    cache), unless :meth:`drop` said the result is not to be kept."""

    def __init__(self, key: str, work: Callable[[], T],
                 then: Callable[[T], None] | None = None) -> None:
        self.key = key
        self._value: T | None = None
        self._error: BaseException | None = None
        self._then = then
        self._taken = False
        self._out = threading.Event()
        # a daemon: an interpreter that exits while a compile runs does not wait for it
        self._thread = threading.Thread(target=self._run, args=(work,),
                                        name="okl-compile", daemon=True)
        self._thread.start()

    def _run(self, work: Callable[[], T]) -> None:
        try:
            self._value = work()
        except BaseException as e:  # raised again on the thread that waits
            self._error = e
        finally:
            self._out.set()

    def result(self) -> T:
        """What ``work()`` returned, once it has; what it raised, raised here."""
        self._taken = True
        self._out.wait()
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]

    def drop(self) -> None:
        """The result is not to be kept (it did not load): :meth:`close` stores nothing."""
        self._then = None

    def close(self) -> None:
        """``then(result)`` here, on the caller's thread, where the result was taken and
        neither failed nor was dropped; what ``then`` raised, raised here.  (A compile
        whose result nobody took -- another process cached the binary meanwhile -- runs out
        on its own: nothing waits for it.)"""
        then, self._then = self._then, None  # once
        if not self._taken or then is None or not self._out.is_set() or \
                self._error is not None:
            return
        then(self._value)  # type: ignore[arg-type]
