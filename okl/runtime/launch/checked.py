"""The runtime half of checked mode: fill a checked kernel's hidden arguments, read its error
buffer after the launch and turn a recorded failure into okl.LaunchError.

The translation (okl.transforms.checked) appended one element count per pointer parameter
and an ``int`` error buffer to the kernel's parameters.  Counts come from what is passed:
okl.Memory, numpy, CuPy and pyopencl arrays from their byte size, a raw pyopencl.Buffer from
its ``size`` in bytes, okl.NULL is 0 elements (any access through it is reported), anything
else is unknown (-1) and not checked.  Reading the buffer waits for the kernel: checked mode
trades asynchronous launches for a report that names the access.
"""

from __future__ import annotations

import numpy as np

from ... import env
from ...errors import LaunchError
from .args import NULL
from .spec import KernelSpec, RuntimeParam

UNKNOWN = -1


def requested(props: dict) -> bool:
    """``Device(mode, check_bounds=True)``, or OKL_CHECK_BOUNDS=1 in the environment (a
    yes/no value, okl.env.flag: ``false`` is off)."""
    if "check_bounds" in props:
        return bool(props.pop("check_bounds"))
    return env.flag("OKL_CHECK_BOUNDS")


def element_count(value, param: RuntimeParam) -> int:
    """How many elements of the parameter's type ``value`` holds (UNKNOWN if unknowable)."""
    itemsize = param.dtype.itemsize if param.dtype is not None else 1
    if value is NULL:
        return 0
    if getattr(value, "freed", False):
        return UNKNOWN  # the argument check refuses it before the launch
    nbytes = getattr(value, "nbytes", None)
    if nbytes is None and hasattr(value, "get_info"):  # a raw pyopencl.Buffer
        nbytes = getattr(value, "size", None)
    if isinstance(nbytes, (int, np.integer)):
        return int(nbytes) // itemsize
    return UNKNOWN


class Checker:
    """One checked kernel's error buffer and the hidden arguments that go with it."""

    def __init__(self, device, spec: KernelSpec):
        self.spec = spec
        self.pointers = [(k, p) for k, p in enumerate(spec.params[:spec.user_params])
                         if p.is_pointer]
        self.buffer = device.zeros(spec.check_ints, np.int32)

    def hidden(self, args) -> list:
        return [element_count(args[k], p) for k, p in self.pointers] + [self.buffer]

    def raise_if_failed(self) -> None:
        head = self.buffer.get()[:6]
        if head[0] == 0:
            return
        self.buffer.set(np.zeros(self.spec.check_ints, np.int32))  # the next launch starts clean
        file, line, col, name = self.spec.check_sites[int(head[0]) - 1]
        index, size = _long(head[2], head[3]), _long(head[4], head[5])
        raise LaunchError(f"{file}:{line}:{col}: out-of-bounds access {name}[{index}] of "
                          f"{size} elements (kernel '{self.spec.name}')")


def _long(low, high) -> int:
    """A C ``long`` the kernel stored as two ints (low word first)."""
    return (int(high) << 32) | (int(low) & 0xFFFFFFFF)
