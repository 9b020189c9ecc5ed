"""okl.Program: every @kernel of one OKL file, built once, handed out by name.

``prog = dev.build_program("ops.okl")``; ``prog.axpy(n, x, y)`` or ``prog["axpy"]``.  This is
what CuPy's ``RawModule`` and PyOpenCL's ``Program`` give: one translation and one backend
build for the whole file (the backend module already holds every kernel), and a lookup per
kernel.  ``Device.build_kernel`` goes through a Program too, so both share one memo, one
cache path and one set of timings.

A Program is a read-only mapping from kernel name to okl.Kernel, in file order.  Each
okl.Kernel is made on first use (setting up a kernel's argument checks and fast launch path
costs about a millisecond; a file may hold dozens), and only then is its block size checked
against the device (okl.BuildError for that kernel alone).  Kernel names that clash with the
Program's own attributes (``device``, ``kernels``, ``names``, ``keys``, ``save``...) are
reached as ``prog["name"]``.  ``prog.save(path)`` writes an ahead-of-time bundle
(okl.runtime.bundle) that ``Device.load_program`` loads with no compiler.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import BuildError, OKLError
from .kernel import Kernel
from .launch.spec import KernelSpec


class NoSuchKernelError(OKLError, KeyError, AttributeError):
    """A kernel name the Program does not have: a KeyError for ``prog["x"]``, an
    AttributeError for ``prog.x`` (so ``getattr(prog, "x", None)`` and ``hasattr`` work), and
    an okl.OKLError that ``oklc`` reports in one line."""

    def __str__(self) -> str:  # KeyError would show the message quoted
        return str(self.args[0]) if self.args else ""


class Program(Mapping):
    """Every @kernel of one translated file, built once for one Device."""

    #: seconds the build took (translation, compile or cache, load); 0.0 for a memo hit
    build_seconds = 0.0
    #: the translation came from okl's cache
    translation_hit = False
    #: the binary came from the cache (None: the backend keeps its own binary cache)
    build_hit: bool | None = False

    def __init__(self, device, specs: list[KernelSpec], module: Any, source: str, *,
                 origin: str, build: dict[str, Any]):
        """``module``: what the backend built (all kernels); ``source``: the backend source;
        ``origin``: the file (or ``<string>``) for messages; ``build``: how it was built
        (defines, include_dirs, flags, and for a loaded bundle its target and key), which
        ``save`` writes into a bundle."""
        self.device = device
        self.specs = {s.name: s for s in specs}
        self.source = source
        self.origin = origin
        self.build_info = build
        self._module = module
        self._kernels: dict[str, Kernel] = {}

    # -- the mapping: name -> okl.Kernel ---------------------------------------------------------
    def __getitem__(self, name: str) -> Kernel:
        kernel = self._kernels.get(name)
        if kernel is not None:
            return kernel
        spec = self.specs.get(name) if isinstance(name, str) else None
        if spec is None:
            raise missing_kernel(name, self.specs, self.origin)
        return self._make(spec)

    def __iter__(self) -> Iterator[str]:
        return iter(self.specs)

    def __len__(self) -> int:
        return len(self.specs)

    def __contains__(self, name: object) -> bool:
        return name in self.specs

    def __getattr__(self, name: str) -> Kernel:
        # only reached for names that are not attributes of the Program itself
        if name.startswith("_") or "specs" not in self.__dict__:
            raise AttributeError(name)  # copy, pickle and numpy probe dunders: not kernels
        return self[name]

    def __dir__(self) -> list[str]:
        """Kernel names too, so that tab completion offers ``prog.<kernel>``."""
        return sorted(set(super().__dir__()) | {n for n in self.specs if n.isidentifier()})

    def __repr__(self) -> str:
        return (f"okl.Program({self.origin!r}, mode={self.device.mode!r}, "
                f"kernels=[{', '.join(self.specs)}])")

    @property
    def module(self) -> Any:
        """What the backend built or loaded: every kernel's code (a library, an OpenCL
        program, CUDA functions), as the mode's driver gives it."""
        return self._module

    @property
    def names(self) -> tuple[str, ...]:
        """The kernels' names, in file order."""
        return tuple(self.specs)

    @property
    def kernels(self) -> tuple[Kernel, ...]:
        """Every kernel as an okl.Kernel, in file order (PyOpenCL's ``all_kernels()``)."""
        return tuple(self[n] for n in self.specs)

    def save(self, path: str | os.PathLike, kernel: str | None = None) -> None:
        """Write this Program (or only ``kernel`` of it) as an ahead-of-time bundle: the
        backend source, the launch specs and the binary built for this device, which
        ``Device.load_program`` / ``load_kernel`` load with no compiler (okl.runtime.bundle).
        """
        from .bundle import write_program

        if kernel is not None and kernel not in self.specs:
            raise missing_kernel(kernel, self.specs, self.origin)
        write_program(path, self, kernel)

    def only(self, name: str | None = None) -> Kernel:
        """``self[name]``, or without a name the one kernel the Program holds (what
        ``Device.load_kernel`` returns); an error lists the kernels where there are more."""
        if name is not None:
            return self[name]
        if len(self.specs) != 1:
            raise NoSuchKernelError(
                f"{self.origin} holds {len(self.specs)} kernels "
                f"({', '.join(self.specs) or 'none'}): name the one to load, "
                "load_kernel(path, name), or load them all with load_program(path)")
        return self[next(iter(self.specs))]

    # -- helpers ---------------------------------------------------------------------------------
    def _make(self, spec: KernelSpec) -> Kernel:
        check_block_size(spec, getattr(self.device.backend, "max_threads", None),
                          self.device.name)
        kernel = Kernel(self.device, spec, self._module, self.source)
        kernel.translation_hit = self.translation_hit
        kernel.build_hit = self.build_hit
        kernel.cache_hit = self.translation_hit and self.build_hit is not False
        kernel.build_seconds = self.build_seconds
        kernel.program = self
        self._kernels[spec.name] = kernel
        return kernel


def missing_kernel(name: object, known, origin: str) -> NoSuchKernelError:
    """The error for a kernel ``name`` that ``origin`` (a file, a bundle) does not define,
    listing the ``known`` ones and a close match."""
    known = list(known)
    close = difflib.get_close_matches(str(name), known, n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return NoSuchKernelError(f"no @kernel named {name!r} in {origin}{hint} "
                             f"(kernels: {', '.join(known) or 'none'})")


def check_block_size(spec: KernelSpec, max_threads: int | None, device: str) -> None:
    """Refuse a kernel whose inner loops, as far as translation knows them, need more threads
    per block than the device has (CUDA/HIP: 1024; OpenCL: the max work-group size): that
    would only fail later, at launch, with a less helpful error."""
    if max_threads is None:
        return
    for dk in spec.device_kernels:
        if dk.threads > max_threads:
            where = f"{dk.threads_loc}: " if dk.threads_loc else ""
            raise BuildError(f"{where}error: the @inner loops of {spec.name} need {dk.threads} "
                             f"threads per block, more than the {max_threads} of {device}; "
                             "make the inner loops (or tile sizes) smaller")
