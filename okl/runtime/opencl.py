"""opencl mode: pyopencl on any platform (pocl gives a CPU device in CI; NVIDIA's on the H200).

Launch: global size = outer x inner and local size = inner per axis, as OCCA does.  Binary
caching is left to the OpenCL implementation (pocl and pyopencl cache built programs
themselves), so the build level of okl's cache is not used here.
"""

from __future__ import annotations

import numpy as np

from ..errors import BackendUnavailableError, BuildError, LaunchError
from .args import ArrayInfo
from .buildlog import map_log
from .gpulaunch import gpu_launcher


def _cl():
    import pyopencl as cl
    return cl


class OpenCLBackend:
    kind = "opencl"

    @staticmethod
    def unavailable(mode: str = "opencl") -> str:
        try:
            cl = _cl()
        except ImportError:
            return "pyopencl not installed: pip install okl[opencl] (and okl[pocl] for a CPU device)"
        try:
            platforms = cl.get_platforms()
        except Exception as e:  # no ICD loader / no platform raises pyopencl's own errors
            return f"no OpenCL platform ({e}): pip install okl[pocl] for a CPU device"
        if not any(p.get_devices() for p in platforms):
            return "OpenCL platforms have no devices: pip install okl[pocl]"
        return ""

    def __init__(self, mode: str, props: dict):
        reason = self.unavailable()
        if reason:
            raise BackendUnavailableError(reason)
        cl = _cl()
        platforms = cl.get_platforms()
        pid = int(props.get("platform_id", 0))
        did = int(props.get("device_id", 0))
        if not 0 <= pid < len(platforms):
            raise BackendUnavailableError(f"OpenCL platform_id {pid} does not exist "
                                          f"({len(platforms)} platform(s))")
        devices = platforms[pid].get_devices()
        if not 0 <= did < len(devices):
            raise BackendUnavailableError(f"OpenCL device_id {did} does not exist on "
                                          f"{platforms[pid].name} ({len(devices)} device(s))")
        self.cl_device = devices[did]
        self.context = cl.Context([self.cl_device])
        self.queue = cl.CommandQueue(self.context)
        self.identity = self.context
        self.name = f"{self.cl_device.name.strip()} ({platforms[pid].name.strip()})"
        self.arch = self.cl_device.version
        flags = props.get("compiler_flags", "")
        self.flags = flags.split() if isinstance(flags, str) else list(flags)

    # -- memory --------------------------------------------------------------------------------
    def describe(self, obj) -> ArrayInfo | None:
        if hasattr(obj, "handle") and hasattr(obj, "info"):
            return obj.info()
        cl = _cl()
        if isinstance(obj, np.ndarray):
            return ArrayInfo(obj.dtype, obj.flags.c_contiguous, False, "host", None,
                             "numpy.ndarray")
        try:
            import pyopencl.array as cla
            if isinstance(obj, cla.Array):
                return ArrayInfo(obj.dtype, obj.flags.c_contiguous, False, "opencl",
                                 obj.context, "pyopencl.array.Array")
        except ImportError:
            pass
        if isinstance(obj, cl.Buffer):
            return ArrayInfo(np.dtype(np.uint8), True, False, "opencl", obj.context,
                             "pyopencl.Buffer")
        return None

    def malloc(self, device, shape, dtype):
        from .device import Memory
        cl = _cl()
        nbytes = max(int(np.prod(shape, dtype=np.int64)) * dtype.itemsize, 1)
        return Memory(device, cl.Buffer(self.context, cl.mem_flags.READ_WRITE, nbytes), shape,
                      dtype)

    def to_device(self, device, host: np.ndarray):
        mem = self.malloc(device, host.shape, host.dtype)
        if host.nbytes:
            _cl().enqueue_copy(self.queue, mem.handle, host)
        return mem

    def to_host(self, mem) -> np.ndarray:
        out = np.empty(mem.shape, mem.dtype)
        if out.nbytes:
            _cl().enqueue_copy(self.queue, out, mem.handle)
        return out

    def write(self, mem, host: np.ndarray) -> None:
        if host.nbytes:
            _cl().enqueue_copy(self.queue, mem.handle, host)

    def finish(self) -> None:
        self.queue.finish()

    # -- kernels -------------------------------------------------------------------------------
    def build(self, device, source: str, specs, flags: list[str]):
        cl = _cl()
        program = cl.Program(self.context, source)
        options = ["-cl-std=CL1.2", *self.flags, *flags]
        try:
            program.build(options=options)
        except cl.RuntimeError as e:
            log = _build_log(program, self.cl_device) or str(e)
            raise BuildError(f"OpenCL build failed on {self.name}:\n{map_log(log)}",
                             command=options, log=log) from None
        return program, False

    def launcher(self, kernel, module):
        cl = _cl()
        spec = kernel.spec
        cl_kernels = [cl.Kernel(module, d.name) for d in spec.device_kernels]
        names = [d.name for d in spec.device_kernels]
        queue = self.queue

        def enqueue(k, outer, inner, raw):
            n = max(len(outer), len(inner))
            local = tuple(inner) + (1,) * (n - len(inner))
            glob = tuple(o * i for o, i in zip(tuple(outer) + (1,) * (n - len(outer)), local))
            knl = cl_kernels[k]
            knl.set_args(*raw)
            try:
                cl.enqueue_nd_range_kernel(queue, knl, glob, local)
            except cl.Error as e:
                raise LaunchError(f"launching {names[k]} with global {glob} and local "
                                  f"{local} failed: {e}") from None

        return gpu_launcher(spec, _buffer, _scalar, enqueue)


def _scalar(v: np.ndarray):
    return v


def _buffer(value):
    if value is None:
        return None
    handle = getattr(value, "handle", None)
    if handle is not None:
        return handle
    data = getattr(value, "base_data", None)  # pyopencl.array.Array
    return data if data is not None else value


def _build_log(program, device) -> str:
    try:
        return program.get_build_info(device, _cl().program_build_info.LOG)
    except Exception:
        return ""
