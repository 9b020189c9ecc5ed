"""Another library's array passed straight to a kernel (a PyTorch tensor, a JAX or CuPy array).

numpy, CuPy and PyOpenCL users pass their arrays to kernels as they are, so okl takes what it
can use without a copy, checked as numpy arrays are (dtype, contiguity, read-only, where the
memory lives): on serial and openmp, CPU arrays that export their memory through
``__array_interface__`` or DLPack (PyTorch CPU tensors, JAX CPU arrays); on cuda and hip,
arrays on the GPU through ``__cuda_array_interface__`` (okl.runtime.drivers.cuda describes
those itself).  Anything else is refused with a message naming ``dev.asarray(x)``, which makes
an okl.Memory of any producer (okl.runtime.interop), copying where it must.

A DLPack export is made per launch (a capsule is used once); a hot loop is faster with
``m = dev.asarray(t)`` made once and ``m`` passed instead, which shares the same memory.
"""

from __future__ import annotations

import numpy as np

from ..interop import HOST_TYPES, dlpack_device
from .args import ArrayInfo, _typename

#: names of the other DLPack device types, for messages (dlpack.h)
_DLPACK_KINDS = {2: "cuda", 4: "opencl", 7: "vulkan", 8: "metal", 10: "rocm", 13: "cuda",
                 14: "oneapi"}


def host_array(obj) -> np.ndarray | None:
    """numpy's array over the memory of another library's CPU array (no copy), or None where
    ``obj`` exports none (or its export fails, e.g. a tensor that requires grad)."""
    if isinstance(obj, np.ndarray):
        return obj
    if getattr(obj, "__array_interface__", None) is not None:
        try:
            return np.asarray(obj)  # the interface's pointer: the same memory
        except Exception:
            return None
    dl = dlpack_device(obj)
    if dl is not None and dl[0] in HOST_TYPES and hasattr(obj, "__dlpack__"):
        try:
            return np.from_dlpack(obj)
        except Exception:
            return None
    return None


def describe(obj) -> ArrayInfo | None:
    """The ArrayInfo of another library's array for a host (serial, openmp) kernel: its
    numpy view's where it shares CPU memory, kind "cuda" (or the DLPack device's kind)
    for accelerator memory, so that the check says where it lives; None for anything else."""
    try:
        iface = getattr(obj, "__cuda_array_interface__", None)
    except Exception:
        iface = None
    if isinstance(iface, dict):
        return ArrayInfo(None, True, False, "cuda", None, _typename(obj))
    dl = dlpack_device(obj)
    if dl is not None and dl[0] not in HOST_TYPES:
        kind = _DLPACK_KINDS.get(dl[0], f"DLPack device type {dl[0]}")
        return ArrayInfo(None, True, False, kind, None, _typename(obj))
    arr = host_array(obj)
    if arr is None:
        return None
    return ArrayInfo(arr.dtype, arr.flags.c_contiguous, not arr.flags.writeable, "host", None,
                     _typename(obj))


def host_describe(obj) -> ArrayInfo | None:
    """:func:`describe` for a GPU mode's driver: another library's array in host memory is
    described (so that the check refuses it as a host array, naming ``dev.asarray(x)``);
    anything else is the driver's to know, or unknown (None)."""
    info = describe(obj)
    return info if info is not None and info.kind == "host" else None
