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

__version__ = "0.1.0"

__all__ = [
    "ArgumentError", "BackendUnavailableError", "BuildError", "Diagnostic", "LaunchError",
    "OKLError", "TranslationError", "analyze", "analyze_file",
]
