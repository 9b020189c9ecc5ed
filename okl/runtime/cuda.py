"""cuda and hip modes through CuPy: NVRTC (or hiprtc on ROCm builds of CuPy) and RawModule.

HIP output runs on NVIDIA GPUs the way HIP itself does there: its ``hip/hip_runtime.h``
resolves to a small header (``include/hip/hip_runtime.h`` next to this file) that maps HIP's
names onto CUDA's, and NVRTC compiles it.  Memory is CuPy arrays; kernels accept okl Memory,
CuPy arrays and any object exporting ``__cuda_array_interface__``.  Binary caching is CuPy's
(keyed on source, options, architecture and NVRTC version).
"""

from __future__ import annotations

import os
import weakref

import numpy as np

from ..errors import BackendUnavailableError, BuildError, LaunchError
from .args import ArrayInfo
from .buildlog import map_log
from .gpulaunch import gpu_launcher

HIP_INCLUDE = os.path.join(os.path.dirname(__file__), "include")


def _cupy():
    import cupy
    return cupy


class CudaBackend:
    kind = "cuda"

    @staticmethod
    def unavailable(mode: str = "cuda") -> str:
        try:
            cp = _cupy()
        except ImportError:
            return "CuPy not installed: pip install okl[cuda]"
        except Exception as e:
            return f"CuPy failed to import ({e})"
        try:
            count = cp.cuda.runtime.getDeviceCount()
        except Exception as e:
            return f"no GPU usable by CuPy ({type(e).__name__}: {e})"
        if count == 0:
            return "no GPU found by CuPy"
        rocm = bool(getattr(cp.cuda.runtime, "is_hip", False))
        if mode == "cuda" and rocm:
            return "this CuPy is built for ROCm: use mode 'hip'"
        return ""

    def __init__(self, mode: str, props: dict):
        reason = self.unavailable(mode)
        if reason:
            raise BackendUnavailableError(reason)
        cp = _cupy()
        self.mode = mode
        self.device_id = int(props.get("device_id", 0))
        count = cp.cuda.runtime.getDeviceCount()
        if not 0 <= self.device_id < count:
            raise BackendUnavailableError(f"device_id {self.device_id} does not exist "
                                          f"({count} GPU(s))")
        self.cp_device = cp.cuda.Device(self.device_id)
        self.identity = self.device_id
        prop = cp.cuda.runtime.getDeviceProperties(self.device_id)
        name = prop["name"]
        self.name = name.decode() if isinstance(name, bytes) else str(name)
        self.rocm = bool(getattr(cp.cuda.runtime, "is_hip", False))
        self.arch = (prop.get("gcnArchName", b"").decode() if self.rocm else
                     f"sm_{prop['major']}{prop['minor']}")
        flags = props.get("compiler_flags", ())
        self.flags = tuple(flags.split() if isinstance(flags, str) else flags)
        self._ndarray = cp.ndarray
        self._described: dict[int, tuple] = {}
        global _Memory, _NDARRAY
        from .device import Memory as _Memory
        _NDARRAY = cp.ndarray

    # -- memory --------------------------------------------------------------------------------
    def describe(self, obj) -> ArrayInfo | None:
        """ArrayInfo of a launch argument.  Runs on every launch, so CuPy arrays (fixed dtype,
        shape and device for their whole life) are described once and remembered by a weak
        reference; okl.Memory remembers its own."""
        kind = type(obj)
        if kind is _Memory:
            return obj.info()
        if kind is self._ndarray:
            hit = self._described.get(id(obj))
            if hit is not None and hit[0]() is obj:
                return hit[1]
            info = ArrayInfo(obj.dtype, obj.flags.c_contiguous, False, "cuda", obj.device.id,
                             "cupy.ndarray")
            if len(self._described) > 4096:
                self._described.clear()
            try:
                self._described[id(obj)] = (weakref.ref(obj), info)
            except TypeError:  # no weak references: describe it again next time
                pass
            return info
        if hasattr(obj, "handle") and hasattr(obj, "info"):
            return obj.info()
        if isinstance(obj, np.ndarray):
            return ArrayInfo(obj.dtype, obj.flags.c_contiguous, False, "host", None,
                             "numpy.ndarray")
        iface = getattr(obj, "__cuda_array_interface__", None)
        if iface is None:
            return None
        dtype = np.dtype(iface["typestr"]) if not iface.get("descr") or \
            len(iface["descr"]) == 1 else np.dtype(iface["descr"])
        strides = iface.get("strides")
        contiguous = strides is None or strides == _c_strides(iface["shape"], dtype.itemsize)
        device = getattr(getattr(obj, "device", None), "id", self.device_id)
        return ArrayInfo(dtype, contiguous, bool(iface["data"][1]), "cuda", device,
                         f"{type(obj).__module__.split('.')[0]}.{type(obj).__name__}")

    def malloc(self, device, shape, dtype):
        from .device import Memory
        cp = _cupy()
        with self.cp_device:
            if dtype.fields is not None:
                handle = cp.empty(int(np.prod(shape, dtype=np.int64)) * dtype.itemsize,
                                  np.uint8)
            else:
                handle = cp.empty(shape, dtype)
        return Memory(device, handle, shape, dtype)

    def to_device(self, device, host: np.ndarray):
        mem = self.malloc(device, host.shape, host.dtype)
        self.write(mem, host)
        return mem

    def to_host(self, mem) -> np.ndarray:
        raw = mem.handle.get()
        return raw.view(mem.dtype).reshape(mem.shape) if mem.dtype.fields is not None else raw

    def write(self, mem, host: np.ndarray) -> None:
        src = host.view(np.uint8).ravel() if mem.dtype.fields is not None else \
            host.reshape(mem.shape)
        with self.cp_device:
            mem.handle.set(src)

    def finish(self) -> None:
        with self.cp_device:
            _cupy().cuda.get_current_stream().synchronize()

    # -- kernels -------------------------------------------------------------------------------
    def build(self, device, source: str, specs, flags: list[str]):
        cp = _cupy()
        options = ["-std=c++17", *self.flags, *flags]
        if self.mode == "hip" and not self.rocm:
            options.append(f"-I{HIP_INCLUDE}")
        with self.cp_device:
            module = cp.RawModule(code=source, options=tuple(options))
            try:
                functions = {d.name: module.get_function(d.name) for s in specs
                             for d in s.device_kernels}
            except cp.cuda.compiler.CompileException as e:
                log = e.get_message() if hasattr(e, "get_message") else str(e)
                raise BuildError(f"{self.mode} build failed (NVRTC, {self.arch}):\n"
                                 f"{map_log(log, source)}", command=["nvrtc", *options],
                                 log=log) from None
        return functions, None  # binaries are cached by CuPy

    def launcher(self, kernel, functions):
        cp = _cupy()
        spec = kernel.spec
        fns = [functions[d.name] for d in spec.device_kernels]
        names = [d.name for d in spec.device_kernels]
        device_id = self.device_id
        get_device = cp.cuda.runtime.getDevice

        def enqueue(k, outer, inner, raw):
            grid = tuple(outer) + (1,) * (3 - len(outer))
            block = tuple(inner) + (1,) * (3 - len(inner))
            try:
                if get_device() == device_id:
                    fns[k](grid, block, raw)
                else:
                    with self.cp_device:
                        fns[k](grid, block, raw)
            except Exception as e:
                raise LaunchError(f"launching {names[k]} with grid {grid} and block {block} "
                                  f"failed: {e}") from None

        return gpu_launcher(spec, _pointer, _scalar, enqueue)


def _scalar(v: np.ndarray):
    # CuPy passes numpy scalars of the basic types by value, and a size-one numpy array by
    # value with its itemsize; a struct (numpy.void) is only accepted in the second form.
    return v[()] if v.dtype.fields is None else v.reshape(1)


def _c_strides(shape, itemsize: int):
    strides, step = [], itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return tuple(reversed(strides))


_Memory = None  # okl.runtime.device.Memory, bound when the first backend is made
_NDARRAY = None  # cupy.ndarray, likewise (importing CuPy costs a second: only when needed)


def _pointer(value):
    if value is None:
        return None
    kind = type(value)
    if kind is _NDARRAY:
        return value
    if kind is _Memory:
        return value.handle
    handle = getattr(value, "handle", None)
    if handle is not None:
        return handle
    if hasattr(value, "data") and hasattr(value, "device") and \
            type(value).__module__.startswith("cupy"):
        return value
    return _cupy().asarray(value)
