"""Ctrl-C during a serial or openmp launch: the kernel stops at its next @outer iteration and
the call raises KeyboardInterrupt.

Python runs its SIGINT handler between byte codes of the main thread, so while the main
thread is inside a kernel (a C call, the GIL released) Ctrl-C only marks the signal as
pending: a long kernel ran on to its end, however long that took.  Each kernel library now
has a flag, ``_okl_interrupted``, and a C handler, ``_okl_interrupt``, that sets it
(okl.targets.serial.INTERRUPT); the entry's ``stop`` argument points at the flag the
kernel's top-level @outer iterations read (okl.transforms.cpu.lower.add_stop_checks).

For a launch from Python's main thread -- where signals are handled -- while SIGINT's
handler is Python's default one (:func:`trap_wanted`): ``_okl_interrupt`` becomes the
process's SIGINT handler for the length of the call (the previous one, flags and mask
included, saved by ``sigaction`` and put back exactly after), ``stop`` points at the
library's flag, and when the flag was set the call raises KeyboardInterrupt, as the default
handler would have. A launch from any other thread leaves SIGINT alone and passes a flag
that is never set, so Ctrl-C on the main thread never cuts another thread's kernel short. A
launch made again with the same arguments as one of the last :data:`QUICK_KEYS` that took
under :data:`QUICK` seconds keeps Python's handler (two system calls saved per launch):
Python sees a Ctrl-C as soon as it returns, and if it runs long after all (work that depends
on the arrays' contents), the next launch is trapped again.

The native caller (cpu_native.c) does the same in C with the addresses of :class:`Trap`.
"""

from __future__ import annotations

import ctypes
import signal
import threading
import time

_libc = ctypes.CDLL(None, use_errno=True)
_sigaction = _libc.sigaction
_sigaction.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
_sigaction.restype = ctypes.c_int
_signal = _libc.signal
_signal.argtypes = [ctypes.c_int, ctypes.c_void_p]
_signal.restype = ctypes.c_void_p
#: room for a saved ``struct sigaction`` (152 bytes with glibc on 64-bit Linux), kept opaque
_SAVED = ctypes.c_char * 1024
#: ``(void *) -1``: what ``signal`` returns on failure
_SIG_ERR = ctypes.c_void_p(-1).value

#: seconds under which a main-thread launch is quick: the next launch of the same kernel with
#: the same argument bytes keeps Python's handler, which sees a Ctrl-C as soon as it returns
#: -- sigaction's two system calls cost more than a small kernel (a 1 us launch took 2)
QUICK = 1e-3
#: quick launches remembered per kernel library (the native caller keeps as many per kernel)
QUICK_KEYS = 32

#: the ``stop`` flag of launches that leave SIGINT alone: never set
_never = ctypes.c_int(0)
NEVER = ctypes.c_void_p(ctypes.addressof(_never))


def main_thread_ident() -> int:
    """The thread that Python runs signal handlers in."""
    ident = threading.main_thread().ident
    assert ident is not None  # the main thread has started
    return ident


class Trap:
    """One kernel library's Ctrl-C flag and handler; :meth:`call` runs an entry under them."""

    def __init__(self, flag: ctypes.c_int, handler: int):
        self.flag = flag
        #: the flag's and the handler's addresses (for the native caller)
        self.flag_address = ctypes.addressof(flag)
        self.handler = handler
        self.stop = ctypes.c_void_p(self.flag_address)
        #: (entry, argument bytes) of the last QUICK_KEYS main-thread launches that took under
        #: QUICK s (a host loop launches over a few ranges in turn: one key would change
        #: every launch), oldest first
        self.quick: dict[tuple, None] = {}

    @classmethod
    def of(cls, lib: ctypes.CDLL) -> Trap | None:
        """The trap of a loaded kernel library; None for a library without one (a bundle
        built by an okl before Ctrl-C was honoured): its kernels run to their end."""
        try:
            flag = ctypes.c_int.in_dll(lib, "_okl_interrupted")  # sig_atomic_t is an int
            handler = ctypes.cast(lib._okl_interrupt, ctypes.c_void_p).value
        except (ValueError, AttributeError):
            return None
        return None if handler is None else cls(flag, handler)

    def call(self, entry, args) -> None:
        """``entry(args, stop)``, honouring Ctrl-C where Python would (see the module)."""
        if threading.get_ident() != _MAIN:
            entry(args, NEVER)
            return
        # the launch: its kernel (ctypes functions do not hash; each kernel keeps its entry
        # for as long as it lives), its arguments' slots and values
        key = (id(entry), bytes(args))
        t0 = time.perf_counter()
        if key in self.quick:  # a launch like a recent one, which was quick
            entry(args, NEVER)
        else:
            self._trapped(entry, args)
        self._remember(key, time.perf_counter() - t0 < QUICK)

    def _remember(self, key: tuple, quick: bool) -> None:
        self.quick.pop(key, None)
        if quick:
            self.quick[key] = None
            if len(self.quick) > QUICK_KEYS:
                del self.quick[next(iter(self.quick))]

    def _trapped(self, entry, args) -> None:
        if not trap_wanted():
            entry(args, NEVER)
            return
        saved = _SAVED()
        self.flag.value = 0
        if _sigaction(signal.SIGINT, None, saved) != 0:
            entry(args, NEVER)
            return
        try:  # from here on (a Ctrl-C may raise as soon as ``_signal`` returns) restored
            if _signal(signal.SIGINT, self.handler) == _SIG_ERR:
                entry(args, NEVER)
                return
            entry(args, self.stop)
        finally:
            _sigaction(signal.SIGINT, saved, None)  # Python's handler, exactly as it was
        if self.flag.value:  # the kernel stopped early: never a result
            self.flag.value = 0
            raise KeyboardInterrupt


def trap_wanted() -> bool:
    """Whether SIGINT's Python handler is the default one, which raises KeyboardInterrupt.
    A handler of the user's own (a flag for a clean shutdown, say) is left alone: the kernel
    runs to its end rather than hand back a partial result that the program goes on with,
    and the handler runs when the launch returns, as around any other C call."""
    return signal.getsignal(signal.SIGINT) is signal.default_int_handler


def untrapped(entry, args) -> None:
    """``entry(args, stop)`` for a library without a trap."""
    entry(args, NEVER)


_MAIN = main_thread_ident()
