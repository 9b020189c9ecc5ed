"""What a runtime driver does for okl: the interface every mode's driver implements.

A driver is the only place that talks to a mode's compiler and runtime (a C compiler and
ctypes, pyopencl, CuPy).  okl's concept modules -- device, memory, copies, stream, kernel,
interop -- call these methods and nothing else of it, so a new mode is one class with them
(plus a row of okl.modes and a target).  :class:`Driver` is a ``typing.Protocol``: drivers do
not inherit from it; the type checker holds each one to it (tests/test_layout.py checks that
every driver the mode table names has every method).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np


class Driver(Protocol):
    #: which memory its buffers are: "host" (serial, openmp), "opencl" or "cuda" (cuda, hip)
    kind: str
    #: which device of its kind (a GPU ordinal; None where all share host memory)
    identity: Any
    name: str

    @staticmethod
    def unavailable(mode: str) -> str:
        """Why ``mode`` cannot run here (what to install or set), or "" when it can."""
        ...

    # -- memory ---------------------------------------------------------------------------
    def describe(self, obj: Any) -> Any:
        """The buffer, shape and dtype of a foreign array (interop), or None."""
        ...

    def malloc(self, device: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any: ...

    def zeros(self, device: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
        """A buffer set to zero (on serial and openmp on a 64-byte line, from calloc's
        lazily zeroed pages)."""
        ...

    def to_device(self, device: Any, host: np.ndarray) -> Any: ...

    def to_host(self, mem: Any) -> np.ndarray:
        """A numpy copy of an allocation or of a view (``mem.base`` set) of one."""
        ...

    def write(self, mem: Any, host: np.ndarray) -> None:
        """Replace an allocation's or a view's contents (``host`` already checked)."""
        ...

    def pinned(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        """Host memory the device copies to and from fastest."""
        ...

    def release(self, mem: Any) -> None: ...

    # -- streams and events (okl.runtime.stream) -----------------------------------------
    def finish(self) -> None: ...

    def stream_default(self) -> Any: ...

    def stream_new(self) -> Any: ...

    def stream_current(self) -> Any: ...

    def stream_use(self, handle: Any) -> None: ...

    def stream_finish(self, handle: Any) -> None: ...

    def stream_wait(self, handle: Any, event: Any, event_stream: Any) -> None: ...

    def event_record(self, handle: Any) -> Any: ...

    def event_finish(self, event: Any) -> None: ...

    def event_seconds(self, start: Any, end: Any) -> float: ...

    # -- building and launching ------------------------------------------------------------
    def properties(self) -> dict: ...

    def kernel_properties(self, kernel: Any, module: Any) -> dict: ...

    def begin_build(self, device: Any, source: str, flags: list[str]) -> Any:
        """The compile of ``source`` started on its own thread (okl.runtime.drivers.started)
        while the runtime finishes the translation's other half, or None where ``build``
        compiles itself (or nothing)."""
        ...

    def build(self, device: Any, source: str, specs: Any, flags: list[str],
              started: Any = None) -> Any:
        """Compile (or load from the cache) one translated file: its loaded module.
        ``started``: what :meth:`begin_build` returned for it."""
        ...

    def launcher(self, kernel: Any, module: Any) -> Any:
        """The function that launches one device kernel of ``module``."""
        ...

    def caller(self, kernel: Any, module: Any) -> Any:
        """The fast path: one generated function that checks the arguments and launches, or
        None where the launcher is used."""
        ...

    # -- ahead-of-time bundles (okl.runtime.bundle) ----------------------------------------
    def binary(self, module: Any) -> bytes:
        """The loadable binary of a module ``build`` returned (okl.BundleError where the
        backend has none to give)."""
        ...

    def binary_target(self, flags: list[str]) -> dict:
        """What a binary built here with ``flags`` is for (device, architecture, CPU
        features, compiler and options): JSON data, written into a bundle."""
        ...

    def binary_refusal(self, target: dict) -> str:
        """Why a binary built for ``target`` cannot run on this device, or ""."""
        ...

    def load_binary(self, device: Any, binary: bytes, specs: Any, target: dict) -> Any:
        """The module of a bundle's binary, as ``build`` returns it, made with no compiler
        (okl.BundleError when the driver refuses it)."""
        ...


#: the methods every driver has (tests/test_layout.py holds the drivers to them)
METHODS = tuple(sorted(name for name in vars(Driver) if not name.startswith("_")
                       and callable(getattr(Driver, name))))
