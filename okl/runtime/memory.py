"""okl.Memory: a buffer on a device, with a dtype and a shape.

``dev.malloc(n)``, ``dev.asarray(x)`` (okl.runtime.interop) and the backends make them;
``get``/``set`` move the contents; views and copies are okl.runtime.copies.  Kernels take a
Memory as a pointer argument (``info`` is how argument checks see it).

Export to other libraries (the methods below):

- serial, openmp: the buffer is a numpy array, so ``__dlpack__``, ``__dlpack_device__`` and
  ``__array_interface__`` are its own: ``np.from_dlpack(mem)``, ``np.asarray(mem)`` and
  ``torch.from_dlpack(mem)`` see the same memory.
- cuda, hip: the buffer is a CuPy array: ``__dlpack__`` (on our GPU, with CuPy's stream
  handling), ``__dlpack_device__`` and ``__cuda_array_interface__`` are its own, so
  ``cupy.from_dlpack(mem)`` and ``torch.from_dlpack(mem)`` see the same memory.
- opencl: DLPack has no device type for OpenCL buffers, so ``__dlpack__`` raises BufferError
  saying so; ``mem.to_pyopencl()`` is a ``pyopencl.array.Array`` over the same buffer, and
  ``mem.get()`` a numpy copy.

A structured dtype has no DLPack type: exporting one raises BufferError.

This module sits below the backends and the modules that make or launch Memory (they import
it); it imports only okl.runtime.copies, args and errors.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ArgumentError
from . import copies
from .launch.args import ArrayInfo

NO_OPENCL_DLPACK = ("okl.Memory of mode 'opencl' cannot be exported through DLPack (DLPack "
                    "has no device type for OpenCL buffers): use mem.get() for a numpy copy, "
                    "or mem.to_pyopencl() for a pyopencl.array.Array over the same buffer")


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
        self.size = math.prod(int(n) for n in self.shape)
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
            copies.release_view(self)
        self.freed = True
        self.handle = None
        # what launches remembered
        for memo in ("_info", "_address", "_device_pointer", "_cl_buffer", "_cl_placed"):
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
        return self.device.backend.to_host(self)

    def set(self, array) -> None:
        """Replace the contents with ``array`` (same dtype and number of elements; an
        ArgumentError otherwise)."""
        self._live("set")
        host = np.ascontiguousarray(np.asarray(array))
        if host.dtype != self.dtype or host.size != self.size:
            raise ArgumentError(f"Memory.set: got {host.dtype} x {host.size}, the buffer holds "
                                f"{self.dtype} x {self.size}")
        self.device.backend.write(self, host)

    # -- copies and views (okl.runtime.copies) -------------------------------------------------
    def copy_from(self, src, count=None, offset=0, src_offset=0, blocking=True) -> None:
        """Copy ``count`` elements of ``src`` (a C-contiguous numpy array or an okl.Memory of
        this device, same dtype), starting at its element ``src_offset``, into this buffer
        from element ``offset``.  ``count=None``: all of ``src`` from ``src_offset``, which
        must fit here.  ``blocking=False``: enqueued on the current stream (GPU modes); wait
        with ``dev.finish()``.  Bad counts, offsets, dtypes or devices: okl.ArgumentError."""
        copies.copy_from(self, src, count, offset, src_offset, blocking)

    def copy_to(self, dst, count=None, offset=0, dst_offset=0, blocking=True) -> None:
        """Copy ``count`` elements of this buffer, from element ``offset``, into ``dst`` (a
        writable C-contiguous numpy array or an okl.Memory of this device, same dtype) from
        its element ``dst_offset``.  ``count=None``: all of this buffer from ``offset``,
        which must fit in ``dst``.  ``blocking`` as in copy_from."""
        copies.copy_to(self, dst, count, offset, dst_offset, blocking)

    def __getitem__(self, key) -> Memory:
        """``mem[key]``: a Memory aliasing part of this one, indexed like a numpy array of
        ``shape`` (``m[1:3]`` of a (4, 4) buffer: shape (2, 4); ``m[1]``: (4,)); it keeps
        this one alive.  Only contiguous parts: steps, strided selections (``m[:, 1]``) and
        out-of-range slices are ArgumentErrors (okl.runtime.copies.view)."""
        return copies.view(self, key)

    __iter__ = None  # a device buffer is not iterated element by element (iter() is a TypeError)

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
        if self.dtype.fields is not None:
            # the handle holds the bytes (cuda, hip): describe the structs instead
            iface = dict(iface, shape=self.shape, typestr=self.dtype.str,
                         descr=self.dtype.descr, strides=None)
        return iface

    # -- export to other libraries (see the module's docstring) --------------------------------
    def _exportable(self, what: str) -> None:
        self._live(what)
        if self.device.backend.kind == "opencl":
            raise BufferError(NO_OPENCL_DLPACK)
        if self.dtype.fields is not None:
            raise BufferError(f"okl.Memory.{what}: DLPack has no type for the structured "
                              f"dtype {self.dtype}; use mem.get()")

    def __dlpack__(self, stream=None, *, max_version=None, dl_device=None, copy=None):
        """DLPack export: the handle's own capsule, the same memory (serial, openmp: host;
        cuda, hip: the GPU).  Only the options the consumer gave are passed on, so an older
        producer is asked nothing it does not know.  opencl raises BufferError (DLPack has
        no OpenCL device): use get() or to_pyopencl()."""
        self._exportable("__dlpack__")
        options = {"max_version": max_version, "dl_device": dl_device, "copy": copy}
        kwargs = {k: v for k, v in options.items() if v is not None}
        backend = self.device.backend
        if backend.kind == "host":
            if stream is not None and stream != -1:  # the array API: CPU consumers pass None
                raise BufferError(f"okl.Memory.__dlpack__: stream {stream!r} on a CPU device")
            return self.handle.__dlpack__(**kwargs)
        with backend.cp_device:  # CuPy orders its current stream of our GPU
            return self.handle.__dlpack__(stream=stream, **kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        self._exportable("__dlpack_device__")
        return self.handle.__dlpack_device__()

    @property
    def __array_interface__(self) -> dict:
        """numpy's interface of host Memory; its ``data`` is the numpy buffer itself, so an
        array made from it keeps the memory alive after ``free``."""
        if self.device.backend.kind != "host":
            raise AttributeError("__array_interface__ exists on serial and openmp memory only "
                                 "(use mem.get() for a copy)")
        self._live("__array_interface__")
        iface = dict(self.handle.__array_interface__)
        iface["data"] = self.handle
        return iface

    def to_pyopencl(self):
        """opencl mode: a pyopencl.array.Array over this buffer (no copy), on the Device's
        queue."""
        self._live("to_pyopencl")
        backend = self.device.backend
        if backend.kind != "opencl":
            raise ArgumentError(f"Memory.to_pyopencl: {self!r} is not OpenCL memory")
        import pyopencl.array as cla
        return cla.Array(backend.queue, self.shape, self.dtype, data=self.handle)

    def __array__(self, *args, **kw):
        self._live("__array__")
        if self.device.backend.kind == "host":
            return np.asarray(self.handle, *args, **kw)
        raise TypeError("okl.Memory lives on the device; call .get() to copy it to numpy")
