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
from .runtime.device import Device, Kernel, Memory, backends
from .translate import Translation, translate, translate_file

from .version import __version__

__all__ = [
    "ArgumentError", "BackendUnavailableError", "BuildError", "Diagnostic", "LaunchError",
    "OKLError", "TranslationError", "analyze", "analyze_file", "Device", "Kernel", "Memory",
    "backends", "Translation", "translate", "translate_file",
]
