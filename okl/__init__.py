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
from .translate import Translation, translate, translate_file

# Imported last on purpose: importing the okl.backends *package* (the emitters) binds the
# name `backends` on this module; the public function must win.
from .runtime.device import Device, Kernel, Memory, backends  # noqa: E402

from .version import __version__

__all__ = [
    "ArgumentError", "BackendUnavailableError", "BuildError", "Diagnostic", "LaunchError",
    "OKLError", "TranslationError", "analyze", "analyze_file", "Device", "Kernel", "Memory",
    "backends", "Translation", "translate", "translate_file",
]
