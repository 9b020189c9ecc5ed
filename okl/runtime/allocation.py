"""One check for every allocation: the shape, the exact byte count, the device's limit.

Why: each backend computed a buffer's size its own way, and some overflowed -- numpy's int64
product wraps (``(2**32, 2**32)`` of float32 became a 1-byte OpenCL buffer that a kernel
then wrote 256 KiB into), ``2**62`` float32 elements asked CuPy for a wrapped byte count, and
the same mistake surfaced elsewhere as numpy's ``ValueError``/``MemoryError`` or pyopencl's
``INVALID_BUFFER_SIZE``, never naming the bytes asked for and the limit.  Here the count and
the bytes are Python integers (exact), checked against what the device can give in one
buffer before the backend is asked; a backend that still fails (memory in use) is reported
the same way.
"""

from __future__ import annotations

import math
import operator
import os
from collections.abc import Callable

import numpy as np

from ..errors import AllocationError, ArgumentError, ShapeError

#: dimensions a Memory may have (numpy's own limit is 64 in numpy 2, 32 before)
MAX_DIMS = 32
#: bytes any one buffer may have on any mode: sizes and offsets are 64-bit signed in numpy,
#: CuPy, OpenCL hosts and okl's generated launch code
MAX_BYTES = 2**63 - 1


def shape_of(count_or_shape) -> tuple[int, ...]:
    """A count or a shape as a tuple of Python ints (numpy integers accepted; floats,
    negative sizes and more than MAX_DIMS dimensions refused)."""
    dims = (count_or_shape,) if np.ndim(count_or_shape) == 0 else tuple(count_or_shape)
    try:
        shape = tuple(operator.index(n) for n in dims)
    except TypeError:
        raise ArgumentError(f"a count or shape of integers is needed, got "
                            f"{count_or_shape!r}") from None
    if any(n < 0 for n in shape):
        raise ShapeError(f"negative size in {count_or_shape!r}")
    if len(shape) > MAX_DIMS:
        raise ShapeError(f"a shape of {len(shape)} dimensions: okl.Memory has at most "
                         f"{MAX_DIMS}; reshape the data to fewer")
    return shape


def checked_shape(device, count_or_shape, dtype: np.dtype) -> tuple[int, ...]:
    """``shape_of``, and the buffer's exact byte count within what ``device`` can give in
    one allocation; raises okl.AllocationError naming both otherwise."""
    shape = shape_of(count_or_shape)
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes > MAX_BYTES:
        raise _too_large(device, shape, dtype, nbytes, MAX_BYTES, "a 64-bit size")
    limit, what = limit_of(device)
    if limit is not None and nbytes > limit:
        raise _too_large(device, shape, dtype, nbytes, limit, what)
    return shape


def allocate(device, shape: tuple[int, ...], dtype: np.dtype, make: Callable):
    """``make()``, with the allocation failures of numpy, CuPy and pyopencl (memory in use,
    a limit the check above could not know) turned into okl.AllocationError."""
    try:
        return make()
    except AllocationError:
        raise
    except Exception as e:
        if not _out_of_memory(e):
            raise
        nbytes = math.prod(shape) * dtype.itemsize
        limit, what = limit_of(device)
        raise AllocationError(
            f"{device.mode}: cannot allocate {_bytes(nbytes)} ({_what(shape, dtype)}): "
            f"the device refused ({type(e).__name__}: {str(e).strip()[:200]}); "
            f"{'its limit is ' + _bytes(limit) + ' (' + what + '), ' if limit else ''}"
            "free buffers no longer needed (del, then dev.finish()) or ask for less") from None


def limit_of(device) -> tuple[int | None, str]:
    """The most bytes ``device`` can give one buffer, and where that number comes from;
    worked out once per Device."""
    known = device.__dict__.get("_allocation_limit")
    if known is None:
        known = device.__dict__["_allocation_limit"] = _limit(device)
    return known


def _limit(device) -> tuple[int | None, str]:
    mode = device.mode
    if mode in ("serial", "openmp"):
        ram, swap = _sysconf_bytes(), _swap_bytes()
        if ram is None:
            return None, ""
        return ram + swap, "this host's memory" + (" and swap" if swap else "")
    backend = device.backend
    if mode == "opencl":
        return int(backend.cl_device.max_mem_alloc_size), \
            f"CL_DEVICE_MAX_MEM_ALLOC_SIZE of {backend.cl_device.name.strip()}"
    total = device.properties.get("memory_bytes")
    return (int(total), f"the memory of {device.name}") if total else (None, "")


def _sysconf_bytes() -> int | None:
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    return pages * size if pages > 0 and size > 0 else None


def _swap_bytes() -> int:
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("SwapTotal:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _out_of_memory(e: Exception) -> bool:
    """Whether ``e`` is an allocator saying no: MemoryError (numpy; CuPy's
    OutOfMemoryError is one), or pyopencl's errors for sizes and exhausted memory."""
    if isinstance(e, MemoryError):
        return True
    text = str(e)
    return any(code in text for code in ("INVALID_BUFFER_SIZE", "MEM_OBJECT_ALLOCATION_FAILURE",
                                         "OUT_OF_RESOURCES", "OUT_OF_HOST_MEMORY"))


def _too_large(device, shape, dtype, nbytes: int, limit: int, what: str) -> AllocationError:
    return AllocationError(
        f"{device.mode}: cannot allocate {_bytes(nbytes)} ({_what(shape, dtype)}): more "
        f"than {_bytes(limit)}, {what}; check the shape (a size computed from another may "
        "have overflowed or been given in bytes), or split the data")


def _what(shape: tuple[int, ...], dtype: np.dtype) -> str:
    return f"shape {shape} of {dtype}: {math.prod(shape)} elements of {dtype.itemsize} bytes"


def _bytes(n: int) -> str:
    for unit, size in (("EiB", 2**60), ("PiB", 2**50), ("TiB", 2**40), ("GiB", 2**30),
                       ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n} bytes ({n / size:.3g} {unit})"
    return f"{n} bytes"
