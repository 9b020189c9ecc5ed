"""opencl mode: pyopencl on any platform (pocl gives a CPU device in CI; NVIDIA's on the H200).

Launch: global size = outer x inner and local size = inner per axis, as OCCA does.  Program
binaries go to the build level of okl's cache (``clGetProgramInfo(CL_PROGRAM_BINARIES)``), so a
new process creates a program from its binary instead of compiling the source again.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import (
    ArgumentError,
    BackendUnavailableError,
    BuildError,
    BundleError,
    LaunchError,
    OKLError,
)
from ...version import __version__
from .. import copies
from ..buildlog import captured_stderr, map_log
from ..cache import Cache
from ..cache import memo as process_memo
from ..launch import foreign
from ..launch.args import ArrayInfo
from ..launch.clcall import compile_cl_caller, element_offset, launch_lock
from ..launch.gpu import gpu_launcher
from ..memory import Memory
from ..verbose import say
from . import clselect
from .toolrun import keep_source


def _cl():
    import pyopencl as cl
    return cl


#: OpenCL device pointer -> the context every okl.Device on that device shares
_CONTEXTS: dict[int, Any] = {}
#: (cache directory, context pointer, build key) -> the program built in this process
_PROGRAMS: dict[tuple, Any] = process_memo({})
#: (program pointer, kernel name) -> cl.Kernel
_KERNELS: dict[tuple, Any] = process_memo({})


def _cl_kernel(program, name: str, kernel: str):
    """The process's one cl.Kernel of ``name`` in ``program``: making one costs pyopencl a
    lookup of its argument-setting code in its on-disk cache (about half a millisecond), and
    every launch sets all arguments before it enqueues, so okl Kernels can share it -- under
    its lock (clcall.launch_lock), so that threads never enqueue each other's arguments.
    ``kernel``: the @kernel ``name`` is a device kernel of, for the error of a refusal."""
    key = (program.int_ptr, name)
    found = _KERNELS.get(key)
    if found is None:
        found = _cl().Kernel(program, name)
        _check_local_memory(found, program, kernel)
        _KERNELS[key] = found
    return found


def _check_local_memory(cl_kernel, program, kernel: str) -> None:
    """Refuse a kernel whose @shared (local) memory the device does not have: launched, PoCL
    aborts the whole process on an assertion, where a GPU's compiler refuses it."""
    cl = _cl()
    for device in program.devices:
        used = cl_kernel.get_work_group_info(cl.kernel_work_group_info.LOCAL_MEM_SIZE, device)
        if used > device.local_mem_size:
            raise BuildError(f"kernel '{kernel}' needs {used} bytes of @shared memory per "
                             f"block; {device.name.strip()} has {device.local_mem_size} "
                             "(CL_DEVICE_LOCAL_MEM_SIZE): make the @shared arrays smaller, "
                             "or keep large data in global memory")


def _given_context(props: dict):
    """(context, device, queue or None) from ``context=`` / ``queue=``, or None when neither
    is given.  ``device_id`` then picks among the context's devices; ``platform_id`` has no
    meaning and is refused."""
    context, queue = props.get("context"), props.get("queue")
    if context is None and queue is None:
        return None
    cl = _cl()
    if queue is not None and not isinstance(queue, cl.CommandQueue):
        raise ArgumentError(f"okl.Device('opencl', queue=...) takes a pyopencl.CommandQueue, "
                            f"got {type(queue).__name__}")
    if context is not None and not isinstance(context, cl.Context):
        raise ArgumentError(f"okl.Device('opencl', context=...) takes a pyopencl.Context, got "
                            f"{type(context).__name__}")
    if props.get("platform_id") is not None:
        raise ArgumentError("okl.Device('opencl'): platform_id cannot be combined with "
                            "context= or queue= (the context says the platform)")
    if queue is not None:
        if context is not None and queue.context != context:
            raise ArgumentError("okl.Device('opencl'): the queue belongs to another context "
                                "than the context= given")
        if props.get("device_id") is not None:
            raise ArgumentError("okl.Device('opencl'): device_id cannot be combined with "
                                "queue= (the queue says the device)")
        return queue.context, queue.device, queue
    assert context is not None  # (neither given: returned above)
    devices = context.devices
    index = props.get("device_id") or 0
    if not 0 <= int(index) < len(devices):
        raise ArgumentError(f"okl.Device('opencl'): device_id {index} is not one of the "
                            f"context's {len(devices)} device(s)")
    return context, devices[int(index)], None


def _context(cl_device):
    """One context per OpenCL device and process: a context costs milliseconds to make, and
    programs are per context, so a second Device on the same device reuses the first one's
    programs (a warm build in microseconds) and takes its buffers as arguments.  Each
    Device still has queues of its own."""
    context = _CONTEXTS.get(cl_device.int_ptr)
    if context is None:
        context = _CONTEXTS[cl_device.int_ptr] = _cl().Context([cl_device])
    return context


class OpenCLBackend:
    kind = "opencl"

    @staticmethod
    def unavailable(mode: str = "opencl") -> str:
        try:
            _cl()
        except ImportError:
            from ...install import install_hint

            return (f"pyopencl not installed: {install_hint('opencl')} (the pocl extra "
                    "instead for a CPU device too)")
        try:
            clselect.choose()
        except clselect.SelectionError as e:
            return str(e)
        return ""

    def __init__(self, mode: str, props: dict):
        try:
            _cl()
        except ImportError:
            raise BackendUnavailableError(self.unavailable()) from None
        cl = _cl()
        given = _given_context(props)
        if given is None:
            try:
                chosen = clselect.choose(props.get("platform_id"), props.get("device_id"))
            except clselect.SelectionError as e:
                raise BackendUnavailableError(str(e)) from None
            self.cl_device, platform_text = chosen.device, chosen.platform_text
            self.context, queue = _context(self.cl_device), None
        else:  # the application's context (and queue): okl inside a PyOpenCL program
            self.context, self.cl_device, queue = given
            platform_text = self.cl_device.platform.name.strip()
        # one queue per okl stream, made with profiling where the device has it (events are
        # timed by it); launches read the current one from this one-element list
        self._profiling = bool(self.cl_device.queue_properties &
                               cl.command_queue_properties.PROFILING_ENABLE)
        if queue is not None:
            self._profiling = bool(queue.properties &
                                   cl.command_queue_properties.PROFILING_ENABLE)
        self._queue_now = [queue if queue is not None else self.stream_new()]
        self.identity = self.context
        self.name = f"{self.cl_device.name.strip()} on {platform_text}"
        self.arch = self.cl_device.version
        self.max_threads = int(self.cl_device.max_work_group_size)
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
        if isinstance(obj, cl.Buffer):  # untyped: any pointee type
            return ArrayInfo(None, True, False, "opencl", obj.context, "pyopencl.Buffer")
        return foreign.host_describe(obj)  # a torch CPU tensor...: refused naming dev.asarray

    def malloc(self, device, shape, dtype):
        cl = _cl()
        nbytes = max(int(np.prod(shape, dtype=object)) * dtype.itemsize, 1)  # exact
        return Memory(device, cl.Buffer(self.context, cl.mem_flags.READ_WRITE, nbytes), shape,
                      dtype)

    def zeros(self, device, shape, dtype):
        return self.to_device(device, np.zeros(shape, dtype))

    def to_device(self, device, host: np.ndarray):
        mem = self.malloc(device, host.shape, host.dtype)
        if host.nbytes:
            _cl().enqueue_copy(self.queue, mem.handle, host)
        return mem

    def to_host(self, mem) -> np.ndarray:
        if mem.base is not None:  # a view may have no sub-buffer: read it from its allocation
            return copies.view_get(mem)
        out = np.empty(mem.shape, mem.dtype)
        if out.nbytes:
            _cl().enqueue_copy(self.queue, out, mem.handle)
        return out

    def write(self, mem, host: np.ndarray) -> None:
        if mem.base is not None:  # as to_host
            copies.view_set(mem, host)
            return
        if host.nbytes:
            _cl().enqueue_copy(self.queue, mem.handle, host)

    def pinned(self, shape, dtype) -> np.ndarray:
        """Device.pinned: a numpy array mapped from a CL_MEM_ALLOC_HOST_PTR buffer (pinned
        host memory on NVIDIA and AMD; the array keeps the mapping and the buffer alive)."""
        cl = _cl()
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        if nbytes == 0:
            return np.empty(shape, dtype)
        flags = cl.mem_flags.READ_WRITE | cl.mem_flags.ALLOC_HOST_PTR
        buffer = cl.Buffer(self.context, flags, nbytes)
        array, _ = cl.enqueue_map_buffer(self.queue, buffer,
                                         cl.map_flags.READ | cl.map_flags.WRITE, 0, shape,
                                         dtype, is_blocking=True)
        return array

    def release(self, mem) -> None:
        """Wait for queued kernels that may use the buffer, then release it."""
        self.queue.finish()
        mem.handle.release()

    def finish(self) -> None:
        self.queue.finish()

    # -- streams and events (okl/runtime/stream.py) --------------------------------------------
    @property
    def queue(self):
        """The queue of the current stream: launches and copies go there."""
        return self._queue_now[0]

    def stream_new(self):
        cl = _cl()
        flags = cl.command_queue_properties.PROFILING_ENABLE if self._profiling else 0
        return cl.CommandQueue(self.context, self.cl_device, properties=flags)

    def stream_default(self):
        return self._queue_now[0]

    stream_current = stream_default

    def stream_use(self, queue) -> None:
        self._queue_now[0] = queue

    def stream_finish(self, queue) -> None:
        queue.finish()

    def stream_wait(self, queue, event, event_queue) -> None:
        if event_queue is not queue:
            event_queue.flush()  # the marker must be submitted before another queue waits
        _cl().enqueue_barrier(queue, wait_for=[event])

    def event_record(self, queue):
        return _cl().enqueue_marker(queue)

    def event_finish(self, event) -> None:
        event.wait()

    def event_seconds(self, start, end) -> float:
        if not self._profiling:
            raise OKLError(f"{self.name} does not time its queues (no CL_QUEUE_PROFILING_"
                           "ENABLE): time on the host instead (time.perf_counter around "
                           "s.finish())")
        return (end.profile.end - start.profile.end) * 1e-9

    # -- properties (okl.runtime.properties) ---------------------------------------------------
    def properties(self) -> dict:
        from ..properties import opencl_properties
        return opencl_properties(self)

    def kernel_properties(self, kernel, program) -> dict:
        from ..properties import opencl_kernel_properties
        return opencl_kernel_properties(self, kernel, program)

    # -- kernels -------------------------------------------------------------------------------
    def begin_build(self, device, source: str, flags: list[str]) -> None:
        """None: the OpenCL compiler starts in ``build``, on the calling thread, whose
        standard error it captures (a process-wide redirection no other thread may share);
        its build takes 0.1-3 s against 1-2 ms of what could run beside it."""
        return None

    def build(self, device, source: str, specs, flags: list[str], started: None = None):
        """(program, binary cache hit).

        The program binary is kept in okl's build cache, keyed on the source, the options and
        the platform, device and driver; a hit creates the program from the binary.  A binary
        the driver refuses (or one that lacks a kernel) is a miss: the source is built and the
        entry replaced.  Whatever the OpenCL implementation caches itself comes on top.  The
        process keeps what it built, per context (which Devices on one OpenCL device share).
        """
        options = ["-cl-std=CL1.2", *self.flags, *flags]
        names = [d.name for s in specs for d in s.device_kernels]
        document = {"okl": __version__, "mode": "opencl", "source": source,
                    "options": options, **self.build_identity()}
        key = Cache.key(document)
        memo = (str(device.cache.root), self.context.int_ptr, key)
        program = _PROGRAMS.get(memo)  # built in this context by this process already
        if program is not None:
            return program, True
        program, hit = self._build(device, key, document, source, options, names)
        _PROGRAMS[memo] = program
        return program, hit

    def _build(self, device, key: str, document: dict, source: str, options: list[str],
               names: list[str]):
        cl = _cl()
        files = device.cache.get("build", key)
        if files is not None:
            program = self._from_binary(files.get("program.bin"), options, names)
            if program is not None:
                return program, True
        program = cl.Program(self.context, source)
        try:
            with captured_stderr() as printed:
                program.build(options=options)
        except cl.Error as e:
            log = _build_log(program, self.cl_device) or str(e)
            extra = printed.text().strip()
            if extra and extra not in log:
                log = f"{log.rstrip()}\n{extra}"
            path = keep_source(source, ".cl")  # one file per distinct source
            try:
                code = int(e.code)  # the CL status, e.g. -11 (CL_BUILD_PROGRAM_FAILURE)
            except Exception:
                code = None
            raise BuildError(f"OpenCL build failed on {self.name}:\n{map_log(log, source)}\n"
                             f"  generated source: {path}",
                             command=["clBuildProgram", *options],
                             returncode=code, log=log,
                             source_path=path) from None
        binary = self._binary_of(program)
        if binary:
            device.cache.put("build", key, {"program.bin": binary}, document)
        return program, False

    def build_identity(self) -> dict:
        """What a program binary depends on besides the source and the options."""
        identity = self.__dict__.get("_identity")
        if identity is None:
            cl = _cl()
            dev, plat = self.cl_device, self.cl_device.platform
            identity = self._identity = {
                "platform": {"name": plat.name, "vendor": plat.vendor, "version": plat.version},
                "device": {"name": dev.name, "vendor": dev.vendor, "version": dev.version,
                           "driver": dev.driver_version,
                           "type": int(dev.get_info(cl.device_info.TYPE))}}
        return identity

    def _binary_of(self, program) -> bytes | None:
        """This device's binary of a built program, or None if the driver gives none."""
        cl = _cl()
        try:
            devices = program.get_info(cl.program_info.DEVICES)
            binaries = program.get_info(cl.program_info.BINARIES)
            binary = binaries[[d.int_ptr for d in devices].index(self.cl_device.int_ptr)]
            return bytes(binary) or None
        except Exception as e:  # the cache is an optimisation: never fail a build over it
            _say(f"OpenCL program binary unavailable ({type(e).__name__}: {e})")
            return None

    def _from_binary(self, binary, options, names):
        """A built program from a cached binary, or None (a miss) if the driver refuses it."""
        cl = _cl()
        if not binary:
            return None
        try:
            program = cl.Program(self.context, [self.cl_device], [binary])
            with captured_stderr():
                program.build(options=options)
            present = set(program.get_info(cl.program_info.KERNEL_NAMES).split(";"))
            missing = [n for n in names if n not in present]
            if missing:
                raise ValueError(f"kernel {missing[0]} is not in the binary")
        except Exception as e:
            _say(f"cached OpenCL binary refused ({type(e).__name__}: {e}); building the source")
            return None
        return program

    # -- ahead-of-time bundles (okl.runtime.bundle) --------------------------------------------
    def binary(self, program) -> bytes:
        """This device's binary of a built program (clGetProgramInfo)."""
        binary = self._binary_of(program)
        if binary is None:
            raise BundleError(f"the OpenCL driver of {self.name} gives no program binary: "
                              "nothing to bundle")
        return binary

    def binary_target(self, flags: list[str]) -> dict:
        """The platform, device and driver a binary is for, and the build options."""
        return {"options": ["-cl-std=CL1.2", *self.flags, *flags], **self.build_identity()}

    def binary_refusal(self, target: dict) -> str:
        """Why a binary built for ``target`` cannot be given to this device ("" when the
        device is the same kind; the driver itself judges the rest when it loads it)."""
        here = self.build_identity()
        for part, keys in (("platform", ("name",)), ("device", ("name", "vendor"))):
            built = target.get(part, {})
            for k in keys:
                if built.get(k) != here[part][k]:
                    return (f"it was built for the OpenCL {part} {built.get(k)!r} and this "
                            f"Device's is {here[part][k]!r}; build it on this device "
                            "(OKL_OPENCL_DEVICE picks another one here)")
        return ""

    def load_binary(self, device, binary: bytes, specs, target: dict):
        """A program from a bundle's binary: clCreateProgramWithBinary, no compiler."""
        cl = _cl()
        names = [d.name for s in specs for d in s.device_kernels]
        try:
            program = cl.Program(self.context, [self.cl_device], [binary])
            with captured_stderr():
                program.build(options=target.get("options", []))
            present = set(program.get_info(cl.program_info.KERNEL_NAMES).split(";"))
        except Exception as e:
            built = target.get("device", {}).get("driver")
            here = self.build_identity()["device"]["driver"]
            why = f" (built with driver {built}, this is {here})" if built != here else ""
            raise BundleError(f"the OpenCL driver refused its program binary{why}: "
                              f"{type(e).__name__}: {e}") from None
        missing = [n for n in names if n not in present]
        if missing:
            raise BundleError(f"its OpenCL program binary lacks the device kernel "
                              f"{missing[0]}")
        return program

    def launcher(self, kernel, module):
        cl = _cl()
        spec = kernel.spec
        cl_kernels = [_cl_kernel(module, d.name, kernel.name) for d in spec.device_kernels]
        locks = [launch_lock(k) for k in cl_kernels]
        names = [d.name for d in spec.device_kernels]
        current = self._queue_now  # [the current stream's queue], read at each launch
        count = len(spec.params)
        # kernels with pointer offsets: each pointer argument arrives as (buffer, byte offset)
        # (_placed); the device kernel takes the buffer in its place and the offset, in
        # elements, after every other argument
        placed = [(i, p) for i, p in enumerate(spec.params) if p.is_pointer] \
            if spec.pointer_offsets else []
        pointers = {i for i, _ in placed}
        uint64 = np.uint64

        def enqueue(k, outer, inner, raw):
            n = max(len(outer), len(inner))
            local = tuple(inner) + (1,) * (n - len(inner))
            glob = tuple(o * i for o, i in zip(tuple(outer) + (1,) * (n - len(outer)), local,
                                               strict=True))
            knl = cl_kernels[k]
            if placed:
                offsets = [uint64(element_offset(kernel.name, i, p, raw[i][1]))
                           for i, p in placed]
                raw = [r[0] if i in pointers else r for i, r in enumerate(raw[:count])] + \
                    raw[count:] + offsets
            with locks[k]:  # as clcall's: set and enqueue as one, per cl.Kernel
                knl.set_args(*raw)
                try:
                    cl.enqueue_nd_range_kernel(current[0], knl, glob, local)
                except cl.Error as e:
                    raise LaunchError(f"launching {names[k]} with global {glob} and local "
                                      f"{local} failed: {e}") from None

        return gpu_launcher(spec, _placed if placed else _buffer, _scalar, enqueue)

    def caller(self, kernel, module):
        """The fast path (clcall.compile_cl_caller); None where it does not apply."""
        cl = _cl()
        names = [d.name for d in kernel.spec.device_kernels]

        def fail(k, glob, local, e) -> LaunchError:
            return LaunchError(f"launching {names[k]} with global {glob} and local {local} "
                               f"failed: {e}")
        try:
            return compile_cl_caller(kernel, [_cl_kernel(module, n, kernel.name) for n in names],
                                     self._queue_now, cl.enqueue_nd_range_kernel,
                                     _placed if kernel.spec.pointer_offsets else _buffer,
                                     fail)
        except Exception as e:  # never worse than the general path
            _say(f"fast launch path unavailable for {kernel.name} ({type(e).__name__}: {e})")
            return None


def _scalar(v: np.ndarray):
    return v


def _placed(value) -> tuple:
    """(cl.Buffer or None, byte offset) of an accepted pointer argument, for kernels with
    pointer offsets (okl.transforms.gpu.pointer_offsets): a view (``mem[10:20]``) passes its
    allocation's buffer and where it starts, at any offset (no sub-buffer, so no base-address
    alignment to meet), a pyopencl array its ``base_data`` and ``offset``."""
    if value is None:
        return None, 0
    if isinstance(value, Memory):
        root = value.base
        if root is None:
            return value.handle, 0
        return root.handle, value.offset * value.dtype.itemsize
    data = getattr(value, "base_data", None)  # pyopencl.array.Array
    if data is None:
        return _buffer(value), 0
    return data, int(getattr(value, "offset", 0))


def _buffer(value):
    if value is None:
        return None
    handle = getattr(value, "handle", None)
    if handle is not None:
        return handle
    refusal = getattr(value, "__dict__", {}).get("_no_sub_buffer")  # okl.runtime.copies
    if refusal:
        raise ArgumentError(refusal)
    data = getattr(value, "base_data", None)  # pyopencl.array.Array
    if data is None:
        return value
    offset = getattr(value, "offset", 0)
    if offset:  # a view such as a[10:]: the kernel must see its first element at index 0
        try:
            return data.get_sub_region(offset, max(value.nbytes, 1))
        except _cl().Error as e:
            raise LaunchError(f"cannot pass a pyopencl array that starts {offset} bytes into "
                              f"its buffer ({e}); pass a copy (a.copy()) or an offset that is "
                              "a multiple of the device's base address alignment") from None
    return data


def _say(message: str) -> None:
    say(message)  # OKL_VERBOSE: to stderr through logging (okl/runtime/verbose.py)


def _build_log(program, device) -> str:
    try:
        return program.get_build_info(device, _cl().program_build_info.LOG)
    except Exception:
        return ""
