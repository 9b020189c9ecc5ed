"""okl: the OKL kernel language compiled to serial C, OpenMP, OpenCL, CUDA and HIP.

The public names are loaded on first use (PEP 562): a script that only translates does not
pay for the runtime and numpy it never touches, and ``oklc --version`` loads nothing but the
version (issue 30).
"""

from __future__ import annotations

import importlib

from .version import __version__

TYPE_CHECKING = False  # not typing's: ``oklc --version`` would import typing for it
if TYPE_CHECKING:  # what the names are, for type checkers (loaded on first use below)
    from .errors import (
        AllocationError,
        ArgumentError,
        BackendUnavailableError,
        BuildError,
        BundleError,
        Diagnostic,
        LaunchError,
        OKLError,
        RaceError,
        RaceWarning,
        ShapeError,
        TranslationError,
    )

_LAZY = {
    "analyze": ".frontend", "analyze_file": ".frontend",
    "Device": ".runtime.device", "Kernel": ".runtime.kernel", "Memory": ".runtime.memory",
    "Program": ".runtime.program",
    "NULL": ".runtime.launch.args", "Stream": ".runtime.stream", "Event": ".runtime.stream",
    "Graph": ".runtime.graph",
    "Translation": ".translation", "translate": ".translation",
    "translate_file": ".translation", "compare": ".comparison",
    **dict.fromkeys(("AllocationError", "ArgumentError", "BackendUnavailableError",
                     "BuildError", "BundleError",
                     "Diagnostic", "LaunchError", "OKLError", "RaceError", "RaceWarning",
                     "ShapeError", "TranslationError"), ".errors"),
}


def backends():
    """One entry per mode: whether it can run here and, if not, why and how to fix it."""
    from .runtime.device import backends as run
    return run()


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'okl' has no attribute '{name}'")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The lazy names too: tab completion and ``dir(okl)`` list ``Device``, ``Memory``...
    before their first use (module ``__getattr__`` alone hides them), without loading them."""
    return sorted(set(globals()) | set(_LAZY) | {"backends"})


__all__ = [
    "__version__", "AllocationError", "ArgumentError", "BackendUnavailableError",
    "BuildError", "BundleError",
    "Diagnostic", "LaunchError", "OKLError", "RaceError", "RaceWarning", "ShapeError",
    "TranslationError",
    "analyze", "analyze_file", "Device", "Kernel", "Memory", "Program", "NULL", "Stream",
    "Event", "Graph", "backends",
    "Translation", "translate", "translate_file", "compare",
]
