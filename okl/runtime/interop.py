"""``Device.asarray``: okl.Memory from any producer, shared without a copy where possible.

Export (okl.Memory as a DLPack producer, its array interfaces, ``to_pyopencl``) is in
Memory's own methods, okl.runtime.memory: that module sits below this one, which makes
Memory objects.

``dev.asarray(x, dtype=None, *, copy=None)`` (``copy`` as in the array API: None
shares where possible, True always copies, False raises where a copy is needed):

- serial, openmp: anything in host memory is shared, not copied -- numpy arrays and every
  DLPack producer on the CPU (PyTorch CPU tensors, JAX CPU arrays, CuPy pinned memory if its
  DLPack says CPU) -- when it is C-contiguous, aligned and writeable; else it is copied.  A
  kernel that writes the Memory then writes ``x``.  GPU producers are copied to the host.
- cuda, hip: producers on the same GPU (CuPy, PyTorch, JAX, numba: DLPack or
  ``__cuda_array_interface__``) are shared when C-contiguous, else copied on that GPU;
  host producers (numpy...) are copied to the GPU; a producer on another GPU is refused with
  an error that names its device.
- opencl: a ``pyopencl.array.Array`` or ``pyopencl.Buffer`` of the Device's context is shared
  (through a sub-buffer over its bytes, so ``Memory.free`` never releases the producer's
  buffer); a Buffer is untyped: ``dtype`` says how to read it (uint8 by default).  Host
  producers are copied; other contexts are refused.
- an ``okl.Memory`` of the same Device is returned as is (``copy=True``: a copy).
"""

from __future__ import annotations

import numpy as np

from ..errors import ArgumentError
from .memory import Memory

#: DLPack's DLDeviceType values (dlpack.h)
CPU, CUDA, CUDA_HOST, OPENCL, VULKAN, METAL, VPI, ROCM, ROCM_HOST, CUDA_MANAGED, ONEAPI = \
    1, 2, 3, 4, 7, 8, 9, 10, 11, 13, 14
DEVICE_TYPES = {CPU: "cpu", CUDA: "cuda", CUDA_HOST: "cuda_host", OPENCL: "opencl",
                VULKAN: "vulkan", METAL: "metal", VPI: "vpi", ROCM: "rocm",
                ROCM_HOST: "rocm_host", CUDA_MANAGED: "cuda_managed", ONEAPI: "oneapi"}
HOST_TYPES = (CPU, CUDA_HOST, ROCM_HOST)


def dlpack_device(obj) -> tuple[int, int] | None:
    """``obj.__dlpack_device__()`` as (type, id), or None if it has none (or it fails)."""
    fn = getattr(obj, "__dlpack_device__", None)
    if fn is None:
        return None
    try:
        kind, index = fn()
        return int(kind), int(index)
    except Exception:
        return None


def device_text(dl: tuple[int, int]) -> str:
    """(2, 1) -> 'cuda:1'."""
    return f"{DEVICE_TYPES.get(dl[0], f'DLPack device type {dl[0]}')}:{dl[1]}"


def _what(obj) -> str:
    kind = type(obj)
    return f"{kind.__module__.split('.')[0]}.{kind.__name__}"


def check_dtype(dtype: np.dtype, obj=None) -> np.dtype:
    """Refuse element types no kernel can take: objects (Python pointers, whose memory a
    kernel would read as numbers and, copied to a device and back, crash the interpreter),
    strings, bytes, dates and times, and raw void.  Booleans, integers, floats, complex
    numbers and structured dtypes of them (CUDA's vector types) are kept."""
    if _numeric(dtype):
        return dtype
    what = f"a {_what(obj)} of " if obj is not None else ""
    raise ArgumentError(f"asarray: {what}dtype {dtype} is not numeric; kernels take bool, "
                        "integer, floating-point and complex elements (or structs of them)")


def _numeric(dtype: np.dtype) -> bool:
    if dtype.kind in "biufc":
        return True
    if dtype.kind == "V" and dtype.fields is not None:
        return all(_numeric(f[0]) for f in dtype.fields.values())
    if dtype.subdtype is not None:  # (float32, 3) inside a struct
        return _numeric(dtype.subdtype[0])
    return False


def asarray(device, obj, dtype=None, copy: bool | None = None) -> Memory:
    """Device.asarray (see the module's docstring)."""
    if copy not in (None, True, False):
        raise TypeError(f"asarray: copy must be None, True or False, got {copy!r}")
    dtype = None if dtype is None else check_dtype(np.dtype(dtype))
    if isinstance(obj, Memory):
        return _from_memory(device, obj, dtype, copy)
    kind = device.backend.kind
    if kind == "host":
        return _to_host(device, obj, dtype, copy)
    if kind == "opencl":
        mem = _opencl_share(device, obj, dtype, copy)
        if mem is not None:
            return mem
    elif kind == "cuda":
        mem = _cuda_share(device, obj, dtype, copy)
        if mem is not None:
            return mem
    # host memory (or elsewhere): a copy through the host
    _no_copy(copy, obj, f"it is not on {device.name}")
    return _upload(device, _host_array(obj, dtype))


def _no_copy(copy, obj, why: str) -> None:
    if copy is False:
        raise ArgumentError(f"asarray(copy=False): a {_what(obj)} needs a copy ({why})")


def _upload(device, host: np.ndarray):
    # reshape: np.ascontiguousarray makes a 0-d array 1-d (a Memory keeps the shape it got)
    return device.backend.to_device(device, np.ascontiguousarray(host).reshape(host.shape))


def _from_memory(device, mem, dtype, copy):
    """An okl.Memory: itself on its own Device; shared with another Device of the same
    memory (serial and openmp; two Devices of one GPU); else copied through the host."""
    mem._live("asarray")
    src, dst = mem.device.backend, device.backend
    same = mem.device is device or (src.kind == dst.kind and src.identity == dst.identity)
    if same and copy is not True and (dtype is None or dtype == mem.dtype):
        return mem if mem.device is device else Memory(device, mem.handle, mem.shape,
                                                       mem.dtype)
    if src.kind == "cuda" and dst.kind == "cuda" and src.identity != dst.identity:
        _other_gpu(device, mem, (ROCM if src.rocm else CUDA, src.identity))
    _no_copy(copy, mem, "it is on another device" if not same else
             f"its dtype is {mem.dtype}, not {dtype}")
    host = mem.get()
    return _upload(device, host if dtype is None else host.astype(dtype))


def _host_array(obj, dtype, copy=None) -> np.ndarray:
    """A host numpy array with obj's data: shared if obj is in host memory, else copied
    (``copy=False``: an ArgumentError where that takes a copy)."""
    out = _host_array_of(obj, dtype, copy)
    if dtype is None:
        check_dtype(out.dtype, obj)
    return out


def _pyopencl_kind(obj) -> str | None:
    """"array" for a pyopencl.array.Array, "buffer" for a pyopencl memory object, else None
    (without importing pyopencl: a program that never made one need not load it)."""
    module = type(obj).__module__ or ""
    if not module.startswith("pyopencl"):
        return None
    import pyopencl as cl
    import pyopencl.array as cla

    if isinstance(obj, cla.Array):
        return "array"
    return "buffer" if isinstance(obj, cl.MemoryObjectHolder) else None


def _host_array_of(obj, dtype, copy=None) -> np.ndarray:
    if isinstance(obj, np.ndarray):
        out = obj
    elif _pyopencl_kind(obj) == "array":  # OpenCL memory: its own copy to the host
        _no_copy(copy, obj, "it is in OpenCL memory")
        out = obj.get()
    elif _pyopencl_kind(obj) == "buffer":
        raise ArgumentError("asarray: a pyopencl.Buffer is untyped and in OpenCL memory; "
                            "use it on an opencl Device (dev.asarray(buf, dtype)), or wrap it "
                            "in a pyopencl.array.Array (its .get() copies it to the host)")
    else:
        dl = dlpack_device(obj)
        if dl is not None and dl[0] not in HOST_TYPES:
            _no_copy(copy, obj, f"it is on {device_text(dl)}")
            out = _copy_to_host(obj)
        else:
            out = None
            if dl is not None:
                try:
                    out = np.from_dlpack(obj)
                except (BufferError, TypeError, ValueError, RuntimeError):
                    out = None
            if out is None:
                try:
                    out = np.asarray(obj, copy=False if copy is False else None)
                except ValueError as e:
                    raise ArgumentError(f"asarray(copy=False): a {_what(obj)} needs a copy "
                                        f"({e})") from None
    assert out is not None  # (each path above gives an array or raises)
    if dtype is not None and out.dtype != dtype:
        _no_copy(copy, obj, f"its dtype is {out.dtype}, not {dtype}")
        out = out.astype(dtype)
    return out


def _copy_to_host(obj) -> np.ndarray:
    """A numpy copy of a producer that lives on an accelerator."""
    errors = []
    try:
        return np.from_dlpack(obj, device="cpu", copy=True)
    except Exception as e:
        errors.append(f"np.from_dlpack: {e}")
    for attempt in (lambda: obj.get(), lambda: obj.cpu().numpy(), lambda: np.asarray(obj)):
        try:
            out = attempt()
            if isinstance(out, np.ndarray):
                return out
        except Exception as e:
            errors.append(f"{type(e).__name__}: {e}")
    raise ArgumentError(f"asarray: cannot copy a {_what(obj)} on "
                        f"{device_text(dlpack_device(obj) or (0, 0))} to the host "
                        f"({'; '.join(errors)})")


def _usable(a: np.ndarray) -> bool:
    return a.flags.c_contiguous and a.flags.aligned and a.flags.writeable


def _to_host(device, obj, dtype, copy):
    """serial, openmp: share host memory that kernels can take as it is, else copy."""
    host = _host_array(obj, dtype, copy)
    if copy is True or not _usable(host):
        if copy is False:
            _no_copy(copy, obj, "it is not C-contiguous, aligned and writeable")
        return device.backend.to_device(device, host)  # a copy in an aligned buffer
    return Memory(device, host, host.shape, host.dtype)


def _other_gpu(device, obj, dl) -> None:
    backend = device.backend
    raise ArgumentError(
        f"asarray: the {_what(obj)} is on {device_text(dl)} (GPU {dl[1]}), this Device is "
        f"{device.mode} GPU {backend.identity} ({device.name}): copy it to GPU "
        f"{backend.identity} first, or use okl.Device({device.mode!r}, device_id={dl[1]})")


def _cuda_share(device, obj, dtype, copy):
    """A Memory sharing obj's GPU memory, or None if obj is not on a GPU (then the caller
    copies it from the host)."""
    import cupy as cp

    backend = device.backend
    gpu_types = (ROCM,) if backend.rocm else (CUDA, CUDA_MANAGED)
    dl = dlpack_device(obj)
    if isinstance(obj, cp.ndarray):
        dl = (gpu_types[0], obj.device.id)
    elif dl is None and hasattr(obj, "__cuda_array_interface__"):
        ptr = obj.__cuda_array_interface__["data"][0]
        where = cp.cuda.runtime.pointerGetAttributes(ptr).device if ptr else backend.identity
        dl = (gpu_types[0], int(where))
    if dl is None or dl[0] in HOST_TYPES:
        return None
    if dl[0] not in gpu_types:
        raise ArgumentError(f"asarray: a {_what(obj)} on {device_text(dl)} cannot be used by "
                            f"{device.mode} ({device.name}); copy it to the host first")
    if dl[1] != backend.identity:
        _other_gpu(device, obj, dl)
    with backend.cp_device:
        if isinstance(obj, cp.ndarray):
            arr = obj
        elif hasattr(obj, "__dlpack__"):
            arr = cp.from_dlpack(obj)
        else:
            arr = cp.asarray(obj)
        fresh = False
        if dtype is not None and arr.dtype != dtype:
            _no_copy(copy, obj, f"its dtype is {arr.dtype}, not {dtype}")
            arr, fresh = arr.astype(dtype), True
        if not arr.flags.c_contiguous:
            _no_copy(copy, obj, "it is not C-contiguous")
            arr, fresh = cp.ascontiguousarray(arr), True
        if copy is True and not fresh:
            arr = arr.copy()
    return Memory(device, arr, arr.shape, arr.dtype)


def _opencl_share(device, obj, dtype, copy):
    """A Memory sharing a pyopencl Array's or Buffer's memory, or None for anything else."""
    import pyopencl as cl

    backend = device.backend
    try:
        import pyopencl.array as cla
    except ImportError:  # pragma: no cover - part of pyopencl
        cla = None
    if cla is not None and isinstance(obj, cla.Array):
        _same_context(device, obj)
        if dtype is not None and dtype != obj.dtype:
            _no_copy(copy, obj, f"its dtype is {obj.dtype}, not {dtype}")
            obj, copy = obj.astype(dtype), None
        if not obj.flags.c_contiguous:
            _no_copy(copy, obj, "it is not C-contiguous")
            return _upload(device, obj.get())
        if copy is True:
            obj = obj.copy()
        buf = _sub_buffer(obj.base_data, obj.offset, obj.nbytes, copy)
        if buf is None:  # a sub-buffer the device refuses (offset alignment): copy it
            return _upload(device, obj.get())
        return Memory(device, buf, obj.shape, obj.dtype)
    if isinstance(obj, cl.Buffer):
        _same_context(device, obj)
        dtype = dtype or np.dtype(np.uint8)
        if obj.size % dtype.itemsize:
            raise ArgumentError(f"asarray: a pyopencl.Buffer of {obj.size} bytes is not a "
                                f"whole number of {dtype} elements")
        count = obj.size // dtype.itemsize
        if copy is True:
            mem = device.backend.malloc(device, (count,), dtype)
            if obj.size:
                cl.enqueue_copy(backend.queue, mem.handle, obj, byte_count=obj.size)
            return mem
        buf = _sub_buffer(obj, 0, obj.size, copy)
        if buf is None:
            raise ArgumentError("asarray: this pyopencl.Buffer cannot be shared (it is a "
                                "sub-buffer); pass copy=True")
        return Memory(device, buf, (count,), dtype)
    return None


def _same_context(device, obj) -> None:
    if obj.context != device.backend.context:
        raise ArgumentError(f"asarray: the {_what(obj)} belongs to another OpenCL context "
                            f"than {device.name}'s; make it with dev.backend.context, or copy "
                            "it through the host (x.get())")


def _sub_buffer(buffer, offset: int, nbytes: int, copy):
    """A sub-buffer over [offset, offset + nbytes): Memory.free releases it, not the
    producer's buffer (OpenCL keeps the parent alive while a sub-buffer exists)."""
    try:
        return buffer.get_sub_region(int(offset), max(int(nbytes), 1))
    except Exception as e:
        if copy is False:
            raise ArgumentError(f"asarray(copy=False): the OpenCL buffer cannot be shared "
                                f"({e})") from None
        return None
