"""Copies between host arrays and okl.Memory, and views of a Memory (``mem[a:b]``).

``dst.copy_from(src, count=None, offset=0, src_offset=0, blocking=True)`` and
``src.copy_to(dst, count=None, offset=0, dst_offset=0, blocking=True)`` copy ``count``
elements (not bytes) between an okl.Memory and a C-contiguous numpy array or another
okl.Memory of the same device.  Offsets and counts are in elements of the flattened buffers;
``count=None`` copies all of the source from its offset, which must then fit at the
destination.  Both sides must have the same dtype (nothing is converted).

``blocking=False`` enqueues the copy on the device's current stream (``dev.current_stream``
where the Device has streams, else the backend's queue: CuPy's current stream on cuda/hip,
the Device's command queue on opencl) and returns at once; ``dev.finish()`` (or the stream's
finish) waits for it.  Until then, leave the host array alone (okl keeps a reference to it,
so dropping yours is safe).  Host arrays from ``dev.pinned`` make such copies really
asynchronous on GPUs; from pageable numpy memory the driver may copy synchronously.  On CPU
modes every copy is synchronous.

A view ``mem[key]`` is an okl.Memory aliasing part of the buffer, indexed as numpy indexes an
array of ``mem.shape`` (``m[1:3]`` of a (4, 4) buffer has shape (2, 4), ``m[1]`` shape (4,),
``m[1, 2]`` shape ()), as long as the part is one contiguous run: slices of step 1 and whole
trailing axes (``m[:, 1]`` is refused, see :func:`view`).  Its ``base`` is the allocation,
``offset`` the index of its first element there in the flattened buffer.  Passed to a kernel,
the kernel's element 0 is the view's first element.  On opencl a
kernel takes the allocation's buffer and the view's offset, a hidden argument
(okl.transforms.gpu.pointer_offsets), so any view works; a view's own handle is a sub-buffer
where its origin is a multiple of the device's base address alignment
(CL_DEVICE_MEM_BASE_ADDR_ALIGN, e.g. 128 bytes), else None, and only kernels from a spec
without offsets (a bundle of an older okl) refuse such a view, with an ArgumentError.
"""

from __future__ import annotations

import math
import operator
import weakref
from typing import Any

import numpy as np

from ..errors import ArgumentError

#: where a backend object keeps (event, objects kept alive) of its asynchronous copies
_PENDING = "_okl_pending_copies"


# -- views ------------------------------------------------------------------------------------

def view(mem, key):
    """``mem[key]``: a contiguous view, indexed as numpy indexes an array of ``mem.shape``.

    Each axis takes an integer (negative from the end; the axis is dropped) or a slice of step
    1; missing trailing axes are whole, ``...`` stands for the whole axes it covers.  The view
    must be one contiguous run of the buffer (``m[1:3]``, ``m[1]``, ``m[2, 1:3]`` of a 2-D
    ``m``; not ``m[:, 1]``): okl.Memory is a pointer to contiguous elements, as a kernel sees
    it, so a strided view is refused (as pyopencl refuses a non-contiguous array for a kernel)
    rather than made into something a kernel would read wrongly.  Unlike numpy, an out-of-range
    slice is refused instead of clipped: on a device buffer it is more often a wrong size."""
    mem._live("__getitem__")
    shape = mem.shape
    if (type(key) is slice and len(shape) == 1 and key.step is None
            and type(key.start) in _PLAIN and type(key.stop) in _PLAIN):
        # the common case, a range of a vector (an application's halo rows, one entry of
        # a vector of sums: every iteration, so its cost is the launch's), taken without the
        # general path's work; anything out of range or unusual goes that way for its message
        n = shape[0]
        first = 0 if key.start is None else key.start
        stop = n if key.stop is None else key.stop
        if 0 <= first <= stop <= n:
            return _make_view(mem, first, stop - first, (stop - first,))
    where = f"okl.Memory of shape {shape}"
    keys = _expand(key, len(shape), where)
    strides = [1] * len(shape)  # in elements, C order
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    offset = 0
    picked: list[tuple[int, int, bool]] = []  # per axis: (first index, count, kept)
    for d, k in enumerate(keys):
        n = shape[d]
        if isinstance(k, slice):
            first, count = _slice_range(k, n, d, key, where)
            picked.append((first, count, True))
        else:
            i = _index(k, f"the index on axis {d}", where)
            if not -n <= i < n:
                raise ArgumentError(f"mem[{_key_text(key)}]: index {i} is out of range for "
                                    f"axis {d} of size {n} of an {where}")
            first = i + n if i < 0 else i
            picked.append((first, 1, False))
        offset += first * strides[d]
    out_shape = tuple(count for _, count, kept in picked if kept)
    size = math.prod(count for _, count, _ in picked)
    # contiguous: after the last axis that is not whole, every earlier axis picks one index
    partial = [d for d, (_, count, _) in enumerate(picked) if count != shape[d]]
    if size > 1 and partial and any(picked[d][1] != 1 for d in range(partial[-1])):
        raise ArgumentError(
            f"mem[{_key_text(key)}] of an {where} is not contiguous (a strided view); an "
            "okl.Memory view is one contiguous run of elements, which is what a kernel's "
            "pointer indexes: select whole trailing axes (mem[a:b], mem[i], mem[i, a:b]), or "
            f"copy the elements to their own buffer (dev.asarray(mem.get()[{_key_text(key)}]))")
    return _make_view(mem, offset, size, out_shape)


def _expand(key, ndim: int, where: str) -> list:
    """The key as one entry per axis: ints and slices, ``...`` and missing axes whole."""
    keys = list(key) if isinstance(key, tuple) else [key]
    for k in keys:
        if isinstance(k, (bool, np.bool_)):  # numpy reads it as a mask, not as index 0 or 1
            raise ArgumentError(f"mem[{_key_text(key)}]: a boolean index selects elements "
                                "by mask, which is a copy, not a view: use mem.get()[mask]")
        if k is not Ellipsis and not isinstance(k, slice):
            try:
                operator.index(k)
            except TypeError:
                raise ArgumentError(
                    f"mem[{_key_text(key)}]: okl.Memory takes integers, slices (step 1) and "
                    f"'...' as indices, got {type(k).__name__} {k!r:.40}") from None
    if keys.count(Ellipsis) > 1:
        raise ArgumentError(f"mem[{_key_text(key)}]: only one '...' is allowed")
    if Ellipsis in keys:
        at = keys.index(Ellipsis)
        keys[at:at + 1] = [slice(None)] * max(ndim - len(keys) + 1, 0)
    if len(keys) > ndim:
        raise ArgumentError(f"mem[{_key_text(key)}]: {len(keys)} indices for an {where} "
                            f"({ndim} axes)")
    return keys + [slice(None)] * (ndim - len(keys))


def _slice_range(key: slice, n: int, axis: int, whole, where: str) -> tuple[int, int]:
    """(first index, count) of a slice of step 1 over axis ``axis``, of size ``n``.
    ``whole``: the view's whole key, for messages (formatted only for one: formatting it
    for every view cost more than the view)."""
    if key.step is not None and _index(key.step, "the slice step", where) != 1:
        raise ArgumentError(f"mem[{_key_text(whole)}]: a step of {key.step} on axis {axis} "
                            f"of an {where}; views take contiguous ranges only (step 1), as "
                            "a kernel's pointer does; copy the elements you need with get() "
                            "and asarray()")
    start = 0 if key.start is None else _index(key.start, "the slice start", where)
    stop = n if key.stop is None else _index(key.stop, "the slice stop", where)
    start_abs = start + n if start < 0 else start
    stop_abs = stop + n if stop < 0 else stop
    if not 0 <= start_abs <= n or not 0 <= stop_abs <= n:
        raise ArgumentError(f"mem[{_key_text(whole)}] is out of range for axis {axis} of "
                            f"size {n} of an {where} (valid indices: -{n} .. {n}); unlike "
                            "Python, okl refuses an out-of-range slice instead of clipping it")
    if stop_abs < start_abs:
        raise ArgumentError(f"mem[{_key_text(whole)}] on an {where}: the start "
                            f"({start_abs}) is after the stop ({stop_abs})")
    return start_abs, stop_abs - start_abs


#: slice bounds the fast path of view() takes as they are
_PLAIN = (int, type(None))


def _key_text(key) -> str:
    parts = key if isinstance(key, tuple) else (key,)
    return ", ".join(_slice_text(k) if isinstance(k, slice) else
                     "..." if k is Ellipsis else repr(k) for k in parts)


def _index(value, what: str, where: str) -> int:
    try:
        return operator.index(value)
    except TypeError:
        raise ArgumentError(f"{what} of a view of an {where} must be an integer, got "
                            f"{type(value).__name__} {value!r}") from None


def _slice_text(key: slice) -> str:
    parts = ["" if p is None else str(p) for p in (key.start, key.stop)]
    return ":".join(parts) + ("" if key.step is None else f":{key.step}")


def _make_view(mem, start: int, count: int, shape: tuple[int, ...]):
    root = mem.base if mem.base is not None else mem
    offset = mem.offset + start
    handle, refusal = _view_handle(root, offset, count, shape)
    out = type(mem)(mem.device, handle, shape, mem.dtype)
    out.base = root  # keeps the allocation alive
    out.offset = offset
    if refusal:
        out.__dict__["_no_sub_buffer"] = refusal
    views = root.__dict__.get("_views")
    if views is None:
        views = root.__dict__["_views"] = weakref.WeakSet()
    views.add(out)
    return out


def _view_handle(root, offset: int, count: int, shape: tuple[int, ...]):
    """(the view's own handle, or None; why it has none, for opencl launches)."""
    kind = root.device.backend.kind
    itemsize = root.dtype.itemsize
    if kind == "host":
        return root.handle.reshape(-1)[offset:offset + count].reshape(shape), ""
    if kind == "cuda":  # a CuPy view: its data.ptr is the parent's plus the offset
        if root.dtype.fields is not None:  # stored as bytes
            return root.handle[offset * itemsize:(offset + count) * itemsize], ""
        return root.handle.reshape(-1)[offset:offset + count].reshape(shape), ""
    # opencl: a sub-buffer (an empty view passes the allocation: nothing may be read)
    if count == 0:
        return root.handle, ""
    origin = offset * itemsize
    align = max(int(root.device.backend.cl_device.mem_base_addr_align) // 8, 1)
    refusal = (f"okl.Memory view of elements {offset}..{offset + count - 1} starts {origin} "
               f"bytes into its buffer, not a multiple of the {align}-byte base address "
               f"alignment of {root.device.name} (CL_DEVICE_MEM_BASE_ADDR_ALIGN), so OpenCL "
               "cannot pass it to a kernel; start the view at a multiple of "
               f"{align // itemsize or 1} elements, or copy it into its own buffer "
               "(dev.malloc + copy_from)")
    if origin % align:
        return None, refusal
    try:
        return root.handle.get_sub_region(origin, count * itemsize), ""
    except Exception as e:  # the driver's own refusal
        return None, f"{refusal} ({type(e).__name__}: {e})"


def release_view(mem) -> None:
    """What Memory.free does for a view: release its own sub-buffer (opencl); the allocation
    stays."""
    handle, root = mem.handle, mem.base
    if mem.device.backend.kind == "opencl" and handle is not None and \
            handle is not root.handle:
        mem.device.backend.queue.finish()
        handle.release()


def view_get(mem) -> np.ndarray:
    out = np.empty(mem.shape, mem.dtype)
    copy(type(mem), out, mem, None, 0, 0, True, "Memory.get", ("out", "self"))
    return out


def view_set(mem, host: np.ndarray) -> None:
    copy(type(mem), mem, host.reshape(-1), None, 0, 0, True, "Memory.set", ("self", "array"))


# -- copies -----------------------------------------------------------------------------------

def copy_from(dst, src, count, offset, src_offset, blocking) -> None:
    copy(type(dst), dst, src, count, offset, src_offset, blocking, "Memory.copy_from",
         ("self", "src"), ("offset", "src_offset"))


def copy_to(src, dst, count, offset, dst_offset, blocking) -> None:
    copy(type(src), dst, src, count, dst_offset, offset, blocking, "Memory.copy_to",
         ("dst", "self"), ("dst_offset", "offset"))


def copy(memory: type[Any], dst, src, count, dst_offset, src_offset, blocking, who: str,
         names=("dst", "src"), offset_names=("dst_offset", "src_offset")) -> None:
    """Copy ``count`` elements from ``src`` (from ``src_offset``) to ``dst`` (from
    ``dst_offset``); one of them is an okl.Memory, the other a Memory or a numpy array.
    ``memory`` is the Memory class, from the caller's ``type(self)``: memory.py imports
    this module, so this one cannot import it back."""
    dst_name, src_name = names
    ends = []
    for obj, name, writes in ((dst, dst_name, True), (src, src_name, False)):
        if isinstance(obj, memory):
            if obj.freed:
                raise ArgumentError(f"{who}: {name} {obj!r} was freed (Memory.free()); "
                                    "allocate a new buffer")
        elif isinstance(obj, np.ndarray):
            if not obj.flags.c_contiguous:
                raise ArgumentError(f"{who}: {name} is a non-contiguous numpy array (a strided "
                                    "view); pass a contiguous one (numpy.ascontiguousarray)")
            if writes and not obj.flags.writeable:
                raise ArgumentError(f"{who}: {name} is a read-only numpy array")
        else:
            raise ArgumentError(f"{who}: {name} must be an okl.Memory or a numpy.ndarray, got "
                                f"{type(obj).__module__}.{type(obj).__qualname__}")
        ends.append(obj)
    mems = [m for m in ends if isinstance(m, memory)]
    if len(mems) == 2:
        a, b = (m.device.backend for m in mems)
        if a.kind != b.kind or a.identity != b.identity:
            raise ArgumentError(f"{who}: {dst_name} is on {mems[0].device!r} and {src_name} on "
                                f"{mems[1].device!r}; copies between Memory objects need one "
                                "device: go through the host (get(), then copy_from)")
    if dst.dtype != src.dtype:
        raise ArgumentError(f"{who}: {dst_name} holds {dst.dtype} and {src_name} holds "
                            f"{src.dtype}; copies need one dtype (convert the host array "
                            "with .astype())")
    dst_len, src_len = int(dst.size), int(src.size)
    dst_offset = _offset(dst_offset, offset_names[0], dst_len, dst_name, who)
    src_offset = _offset(src_offset, offset_names[1], src_len, src_name, who)
    if count is None:
        count = src_len - src_offset
    else:
        try:
            count = operator.index(count)
        except TypeError:
            raise ArgumentError(f"{who}: count must be an integer or None, got "
                                f"{type(count).__name__} {count!r}") from None
        if count < 0:
            raise ArgumentError(f"{who}: count={count} is negative")
        if src_offset + count > src_len:
            raise ArgumentError(f"{who}: count={count} from {offset_names[1]}={src_offset} "
                                f"runs past the end of {src_name} ({src_len} elements)")
    if dst_offset + count > dst_len:
        raise ArgumentError(f"{who}: {count} elements from {src_name} do not fit in {dst_name} "
                            f"({dst_len} elements) at {offset_names[0]}={dst_offset}"
                            + (" (count=None copies all of the source from its offset)"
                               if count == src_len - src_offset else ""))
    if not isinstance(blocking, (bool, np.bool_)):
        raise ArgumentError(f"{who}: blocking must be True or False, got {blocking!r}")
    if count == 0:
        return
    backend = mems[0].device.backend
    if backend.kind == "host":
        _flat(dst)[dst_offset:dst_offset + count] = _flat(src)[src_offset:src_offset + count]
    elif backend.kind == "cuda":
        _cuda_copy(mems[0].device, dst, src, count, dst_offset, src_offset, bool(blocking))
    else:
        _cl_copy(mems[0].device, dst, src, count, dst_offset, src_offset, bool(blocking))


def _offset(value, name: str, length: int, side: str, who: str) -> int:
    try:
        value = operator.index(value)
    except TypeError:
        raise ArgumentError(f"{who}: {name} must be an integer, got {type(value).__name__} "
                            f"{value!r}") from None
    if not 0 <= value <= length:
        raise ArgumentError(f"{who}: {name}={value} is outside {side} ({length} elements; "
                            f"offsets run from 0 to {length})")
    return value


def _root(mem):
    """The allocation a Memory is (or views)."""
    return mem if mem.base is None else mem.base


def _flat(obj) -> np.ndarray:
    return obj.reshape(-1) if isinstance(obj, np.ndarray) else obj.handle.reshape(-1)


def _keep(backend, event, done, *objects) -> None:
    """Keep what an asynchronous copy uses alive until ``event`` is done (checked, and the
    finished ones dropped, at each asynchronous copy)."""
    pending = backend.__dict__.setdefault(_PENDING, [])
    pending[:] = [p for p in pending if not done(p[0])]
    pending.append((event, objects))


def _current(device):
    """The backend handle of the device's current stream, or None (the backend's default)."""
    stream = getattr(device, "current_stream", None)
    return getattr(stream, "handle", None)


def _overlap(dst, src, count: int, dst_offset: int, src_offset: int) -> bool:
    """Whether two ends of a copy share elements (a numpy array never does: ``copy`` has
    checked that each end is an okl.Memory or a numpy array)."""
    if isinstance(dst, np.ndarray) or isinstance(src, np.ndarray):
        return False
    (space_a, a), (space_b, b) = _address(dst, dst_offset), _address(src, src_offset)
    if space_a != space_b:
        return False
    nbytes = count * dst.dtype.itemsize
    return a < b + nbytes and b < a + nbytes


def _address(mem, offset: int) -> tuple:
    """(address space, byte address) of element ``offset`` of ``mem``: two Memory objects of
    different Devices may share one allocation (``asarray`` of another Device's Memory), so
    overlap is a question of addresses, not of which Memory object holds them."""
    handle = _root(mem).handle
    at = (mem.offset + offset) * mem.dtype.itemsize
    if isinstance(handle, np.ndarray):
        return "host", handle.ctypes.data + at
    ptr = getattr(getattr(handle, "data", None), "ptr", None)
    if ptr is not None:  # CuPy: one address space per process (unified addressing)
        return "cuda", ptr + at
    int_ptr = getattr(handle, "int_ptr", None)
    if int_ptr is not None:  # a pyopencl Buffer: its cl_mem, whichever Python object holds it
        return ("opencl", int_ptr), at
    return ("object", id(handle)), at


def _cuda_copy(device, dst, src, count, dst_offset, src_offset, blocking) -> None:
    import cupy as cp

    backend = device.backend
    rt = cp.cuda.runtime
    itemsize = dst.dtype.itemsize
    nbytes = count * itemsize
    keep: list = []

    def pointer(obj, offset):
        if isinstance(obj, np.ndarray):
            keep.append(obj)
            return obj.ctypes.data + offset * itemsize, False
        keep.append(obj.handle)
        return obj.handle.data.ptr + offset * itemsize, True

    with backend.cp_device:
        stream = _current(device)
        if stream is None:
            stream = cp.cuda.get_current_stream()
        d, d_dev = pointer(dst, dst_offset)
        s, s_dev = pointer(src, src_offset)
        kind = {(True, False): getattr(rt, "memcpyHostToDevice", 1),
                (False, True): getattr(rt, "memcpyDeviceToHost", 2),
                (True, True): getattr(rt, "memcpyDeviceToDevice", 3)}[(d_dev, s_dev)]
        if _overlap(dst, src, count, dst_offset, src_offset):  # through a temporary
            tmp = cp.empty(nbytes, np.uint8)
            keep.append(tmp)
            rt.memcpyAsync(tmp.data.ptr, s, nbytes, kind, stream.ptr)
            rt.memcpyAsync(d, tmp.data.ptr, nbytes, kind, stream.ptr)
        else:
            rt.memcpyAsync(d, s, nbytes, kind, stream.ptr)
        if blocking:
            stream.synchronize()
        else:
            event = cp.cuda.Event(disable_timing=True)
            event.record(stream)
            _keep(backend, event, lambda e: e.done, *keep)


def _cl_copy(device, dst, src, count, dst_offset, src_offset, blocking) -> None:
    import pyopencl as cl

    backend = device.backend
    queue = _current(device)
    if queue is None:
        queue = backend.queue
    itemsize = dst.dtype.itemsize
    if isinstance(src, np.ndarray):
        event = cl.enqueue_copy(queue, _root(dst).handle, _flat(src)[src_offset:src_offset + count],
                                dst_offset=(dst.offset + dst_offset) * itemsize,
                                is_blocking=blocking)
    elif isinstance(dst, np.ndarray):
        event = cl.enqueue_copy(queue, _flat(dst)[dst_offset:dst_offset + count], _root(src).handle,
                                src_offset=(src.offset + src_offset) * itemsize,
                                is_blocking=blocking)
    else:
        nbytes = count * itemsize
        at_dst, at_src = (dst.offset + dst_offset) * itemsize, (src.offset + src_offset) * itemsize
        if _overlap(dst, src, count, dst_offset, src_offset):  # OpenCL refuses overlaps
            tmp = cl.Buffer(backend.context, cl.mem_flags.READ_WRITE, nbytes)
            cl.enqueue_copy(queue, tmp, _root(src).handle, byte_count=nbytes, src_offset=at_src)
            event = cl.enqueue_copy(queue, _root(dst).handle, tmp, byte_count=nbytes,
                                    dst_offset=at_dst)
        else:
            event = cl.enqueue_copy(queue, _root(dst).handle, _root(src).handle, byte_count=nbytes,
                                    src_offset=at_src, dst_offset=at_dst)
        if blocking:
            event.wait()
    if not blocking:
        complete = cl.command_execution_status.COMPLETE
        _keep(backend, event, lambda e: e.command_execution_status == complete, src, dst)
