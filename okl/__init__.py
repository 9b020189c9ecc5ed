"""okl: the OKL kernel language compiled to serial C, OpenMP, OpenCL, CUDA and HIP."""

from .errors import (
    ArgumentError,
    BackendUnavailableError,
    BuildError,
    Diagnostic,
    LaunchError,
    OKLError,
    TranslationError,
)
from .frontend import analyze, analyze_file
from .runtime.device import Device, Kernel, Memory
from .runtime.device import backends as _backends
from .translate import Translation, translate, translate_file
from .version import __version__

# The okl.backends *package* (the emitters) binds the name `backends` on this module when it is
# first imported; the public function must win, so it is bound after every import.
backends = _backends

__all__ = [
    "__version__", "ArgumentError", "BackendUnavailableError", "BuildError", "Diagnostic",
    "LaunchError", "OKLError", "TranslationError", "analyze", "analyze_file", "Device",
    "Kernel", "Memory", "backends", "Translation", "translate", "translate_file",
]
