"""okl.Memory: a buffer on a device, with a dtype and a shape.

``dev.malloc(n)``, ``dev.asarray(x)`` and the backends make them; ``get``/``set`` move the
contents, views and copies are okl.runtime.copies, DLPack and the array interfaces
okl.runtime.interop.  Kernels take a Memory as a pointer argument (``info`` is how argument
checks see it).
"""

from __future__ import annotations

import numpy as np

from ..errors import ArgumentError
from .args import ArrayInfo


class Memory:
    """A buffer on a device, with a dtype and a shape."""

    freed = False
    #: a view (``mem[a:b]``, okl.runtime.copies): the allocation it aliases, and the index of
    #: its first element there; None and 0 for an allocation
    base: Memory | None = None
    offset = 0

    def __init__(self, device, handle, shape: tuple[int, ...], dtype: np.dtype):
        self.device = device
        self.handle = handle
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        # fixed for the buffer's life; plain attributes, since every launch's bounds check
        # reads them (np.prod per call cost 5 us a pointer)
        self.size = int(np.prod(self.shape, dtype=np.int64))
        self.nbytes = self.size * self.dtype.itemsize

    def __repr__(self) -> str:
        state = ", freed" if self.freed else ""
        return (f"okl.Memory(shape={self.shape}, dtype={self.dtype}, "
                f"mode={self.device.mode!r}{state})")

    def free(self) -> None:
        """Release the buffer now instead of when the object is collected (idempotent).

        Afterwards every use (a launch argument, get, set, a copy) is an ArgumentError naming
        it as freed, never a read of released memory.  Queued work that uses it finishes
        first.  Freeing an allocation frees its views too; freeing a view (``mem[a:b]``)
        only ends that view: the allocation and its other views stay usable."""
        if self.freed:
            return
        for view in list(self.__dict__.get("_views", ())):
            view.free()
        if self.base is None:
            self.device.backend.release(self)
        else:
            from .copies import release_view
            release_view(self)
        self.freed = True
        self.handle = None
        # what launches remembered
        for memo in ("_info", "_address", "_device_pointer", "_cl_buffer"):
            self.__dict__.pop(memo, None)

    def _live(self, what: str) -> None:
        if self.freed:
            raise ArgumentError(f"Memory.{what}: {self!r} was freed (Memory.free()); "
                                "allocate a new buffer")

    def __len__(self) -> int:
        return self.shape[0] if self.shape else 1

    def get(self) -> np.ndarray:
        """A numpy copy of the contents (waits for queued work that writes it)."""
        self._live("get")
        if self.base is not None:
            from .copies import view_get
            return view_get(self)
        return self.device.backend.to_host(self)

    def set(self, array) -> None:
        self._live("set")
        host = np.ascontiguousarray(np.asarray(array))
        if host.dtype != self.dtype or host.size != self.size:
            raise ArgumentError(f"Memory.set: got {host.dtype} x {host.size}, the buffer holds "
                                f"{self.dtype} x {self.size}")
        if self.base is not None:
            from .copies import view_set
            view_set(self, host)
            return
        self.device.backend.write(self, host)

    # -- copies and views (okl.runtime.copies) -------------------------------------------------
    def copy_from(self, src, count=None, offset=0, src_offset=0, blocking=True) -> None:
        """Copy ``count`` elements of ``src`` (a C-contiguous numpy array or an okl.Memory of
        this device, same dtype), starting at its element ``src_offset``, into this buffer
        from element ``offset``.  ``count=None``: all of ``src`` from ``src_offset``, which
        must fit here.  ``blocking=False``: enqueued on the current stream (GPU modes); wait
        with ``dev.finish()``.  Bad counts, offsets, dtypes or devices: okl.ArgumentError."""
        from .copies import copy_from
        copy_from(self, src, count, offset, src_offset, blocking)

    def copy_to(self, dst, count=None, offset=0, dst_offset=0, blocking=True) -> None:
        """Copy ``count`` elements of this buffer, from element ``offset``, into ``dst`` (a
        writable C-contiguous numpy array or an okl.Memory of this device, same dtype) from
        its element ``dst_offset``.  ``count=None``: all of this buffer from ``offset``,
        which must fit in ``dst``.  ``blocking`` as in copy_from."""
        from .copies import copy_to
        copy_to(self, dst, count, offset, dst_offset, blocking)

    def __getitem__(self, key) -> Memory:
        """``mem[a:b]``: a Memory aliasing elements a..b-1 of the flattened buffer (see
        okl.runtime.copies); it keeps this one alive.  Steps, out-of-range slices and
        integer indices are ArgumentErrors."""
        from .copies import view
        return view(self, key)

    __iter__ = None  # __getitem__ takes slices only: not an iterable (iter() is a TypeError)

    def info(self) -> ArrayInfo:
        """How argument checks see this buffer (computed once: it never changes)."""
        info = self.__dict__.get("_info")
        if info is None:
            info = ArrayInfo(self.dtype, True, False, self.device.backend.kind,
                             self.device.backend.identity, "okl.Memory", self.freed)
            if not self.freed:  # a fresh object each time: never the one a launch remembers
                self.__dict__["_info"] = info
        return info

    @property
    def __cuda_array_interface__(self) -> dict:
        iface = getattr(self.handle, "__cuda_array_interface__", None)
        if iface is None:
            raise AttributeError("__cuda_array_interface__ exists on CUDA memory only")
        if self.dtype.fields is not None:  # the handle holds the bytes: describe the structs
            from .interop import struct_interface
            iface = struct_interface(iface, self.shape, self.dtype)
        return iface

    # -- interop (okl/runtime/interop.py) -------------------------------------------------------
    def __dlpack__(self, stream=None, *, max_version=None, dl_device=None, copy=None):
        """DLPack export: the same memory (serial, openmp: host; cuda, hip: the GPU).
        opencl raises BufferError (DLPack has no OpenCL device): use get() or to_pyopencl()."""
        from .interop import export_dlpack
        return export_dlpack(self, stream, {"max_version": max_version,
                                            "dl_device": dl_device, "copy": copy})

    def __dlpack_device__(self) -> tuple[int, int]:
        from .interop import export_device
        return export_device(self)

    @property
    def __array_interface__(self) -> dict:
        from .interop import array_interface
        return array_interface(self)

    def to_pyopencl(self):
        """opencl mode: a pyopencl.array.Array over this buffer (no copy)."""
        from .interop import to_pyopencl
        return to_pyopencl(self)

    def __array__(self, *args, **kw):
        self._live("__array__")
        if self.device.backend.kind == "host":
            return np.asarray(self.handle, *args, **kw)
        raise TypeError("okl.Memory lives on the device; call .get() to copy it to numpy")
