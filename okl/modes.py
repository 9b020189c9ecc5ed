"""The mode table: every mode okl has, and every fact about it that more than one stage uses.

A mode is what a user names (``okl.Device("cuda")``, ``oklc translate -m cuda``).  Each row
says how the preprocessor spells it (``OKL_MODE``), whether its kernels run on a launch grid
(GPU modes: OpenCL, CUDA, HIP), which target writes its code (okl.targets), which runtime
driver compiles and launches it (okl.runtime.drivers), which options its ``Device`` takes and
where it comes in ``Device("auto")``'s order.  Targets and drivers are named, not imported:
this module is on the ground floor and every stage may read it.  Adding a mode is one row
here, one target file and one driver file (docs/architecture.rst).
"""

from __future__ import annotations

import importlib

from .record import record


@record(frozen=True)
class Mode:
    name: str
    macro: str  # the value of OKL_MODE in kernels (OCCA's spelling)
    gpu: bool  # device kernels on a launch grid, host code in Python
    target: str  # "module:class" of its okl.targets.target.Target
    driver: str  # "module:class" of its okl.runtime.drivers.driver.Driver
    options: tuple[str, ...]  # Device options besides COMMON_OPTIONS
    auto_rank: int  # Device("auto") tries the modes by this rank, lowest first

    def target_class(self) -> type:
        return _load(self.target)

    def driver_class(self) -> type:
        return _load(self.driver)


#: Device options every mode takes
COMMON_OPTIONS = ("cache_dir", "check_bounds", "check_races")

_CPU = ("compiler", "compiler_flags")
_GPU = ("device_id", "compiler_flags", "stream")

TABLE = (
    Mode("serial", "Serial", False, "okl.targets.serial:SerialTarget",
         "okl.runtime.drivers.cpu:CPUBackend", _CPU, 4),
    Mode("openmp", "OpenMP", False, "okl.targets.openmp:OpenMPTarget",
         "okl.runtime.drivers.cpu:CPUBackend", _CPU, 3),
    Mode("opencl", "OpenCL", True, "okl.targets.opencl:OpenCLTarget",
         "okl.runtime.drivers.opencl:OpenCLBackend",
         ("platform_id", "device_id", "compiler_flags", "context", "queue"), 2),
    Mode("cuda", "CUDA", True, "okl.targets.cuda:CudaTarget",
         "okl.runtime.drivers.cuda:CudaBackend", _GPU, 0),
    Mode("hip", "HIP", True, "okl.targets.hip:HipTarget",
         "okl.runtime.drivers.cuda:CudaBackend", _GPU, 1),
)

#: The mode names, in the order every table lists them
MODES = tuple(m.name for m in TABLE)
BY_NAME = {m.name: m for m in TABLE}
#: The order in which Device("auto") tries the modes
AUTO_ORDER = tuple(m.name for m in sorted(TABLE, key=lambda m: m.auto_rank))
GPU_MODES = tuple(m.name for m in TABLE if m.gpu)


def get(name: str) -> Mode:
    """The row of mode ``name`` (a KeyError names the modes there are)."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown mode '{name}': choose one of {', '.join(MODES)}") from None


def _load(ref: str) -> type:
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)
