"""cuda and hip modes through CuPy: NVRTC (or hiprtc on ROCm builds of CuPy) and RawModule.

HIP output runs on NVIDIA GPUs the way HIP itself does there: its ``hip/hip_runtime.h``
resolves to a small header (``include/hip/hip_runtime.h`` next to this file) that maps HIP's
names onto CUDA's, and NVRTC compiles it.  Memory is CuPy arrays; kernels accept okl Memory,
CuPy arrays and any object exporting ``__cuda_array_interface__``.  On NVIDIA GPUs the
cubin NVRTC makes is kept in okl's build cache (keyed on source, options, architecture and
NVRTC version: see CudaBackend.build); on ROCm binary caching is CuPy's.

Launches on NVIDIA GPUs go straight to ``cuLaunchKernel`` through CuPy's own binding of it
(``cupy.cuda.driver.launchKernel``, a Cython function of plain integers): a function generated
per kernel checks the arguments and writes ``kernelParams`` into one ctypes buffer (see
``okl.runtime.launch.gpu.compile_caller``), on CuPy's current stream, with the CUfunction of
CuPy's module.  On ROCm, if that setup fails, or with the environment variable
``OKL_LAUNCH=cupy`` (read when a kernel is built), launches go through CuPy's ``RawKernel``
call instead.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import struct
import tempfile
import threading
import weakref
from typing import Any

import numpy as np

from ...errors import ArgumentError, BackendUnavailableError, BuildError, BundleError, LaunchError
from ...version import __version__
from ..buildlog import map_log
from ..cache import Cache
from ..cache import memo as process_memo
from ..launch import foreign
from ..launch.args import ArrayInfo
from ..launch.gpu import (
    array_address,
    compile_caller,
    env_names,
    gpu_launcher,
    memoized,
    trivial_host,
)
from ..launch.hostrun import compile_function
from ..memory import Memory
from ..verbose import say
from .cudagraph import CudaGraph
from .started import Started

HIP_INCLUDE = os.path.join(os.path.dirname(__file__), "include")
#: NVRTC's option (CUDA 12.4 on) that leaves out the declarations of textures and surfaces,
#: the device runtime (cudaMalloc and launches from device code) and the runtime API's types
#: and macros (cudaError_t, cudaStream_t): none of them is in okl's generated code, and
#: parsing them is a fifth of a small kernel's compile.  On an H200 host (NVRTC 13.0) it took
#: 1.4-10.4 ms off each compile of the benchmark kernels (addVectors 32.2 -> 25.6 ms) and left
#: every PTX and cubin byte-identical (benchmarks/results/h200-2026-11-29-nvrtc-minimal.txt).
#: A kernel whose own code names one of them compiles again without it (_nvrtc_cubin).
MINIMAL = "-minimal"
#: the first NVRTC with MINIMAL
MINIMAL_SINCE = (12, 4)
#: (cache directory, mode, GPU, source, options) -> (the loaded functions of one module, its
#: binary cache hit as build() reports it)
_LOADED: dict[tuple, tuple[dict, bool | None]] = process_memo({})
#: (GPU, id of a loaded function, argument count) -> (that function, its _Direct): the set-up
#: of direct launches, once per process, not per Device
_DIRECTS: dict[tuple, tuple] = process_memo({})
#: whether a probe launch (CudaBackend._direct) has gone through CuPy's binding in this process
_binding_checked = False


#: the largest read that goes through a Device's page-locked staging buffer (see to_host)
SMALL_READ = 1 << 16


def _cupy():
    import cupy
    return cupy


class _Functions(dict):
    """The device kernels of a module loaded from a cubin, by name, with the cubin (what
    an ahead-of-time bundle carries)."""

    def __init__(self, functions: dict, cubin: bytes):
        super().__init__(functions)
        self.cubin = cubin


class CudaBackend:
    kind = "cuda"

    @staticmethod
    def unavailable(mode: str = "cuda") -> str:
        try:
            cp = _cupy()
        except ImportError:
            from ...install import install_hint

            how = install_hint("rocm") if mode == "hip" else \
                f"{install_hint('cuda12')} (CUDA 12) or {install_hint('cuda13')} (CUDA 13)"
            return f"CuPy not installed: {how}"
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
        count = self.gpu_count = cp.cuda.runtime.getDeviceCount()
        if not 0 <= self.device_id < count:
            raise BackendUnavailableError(f"device_id {self.device_id} does not exist "
                                          f"({count} GPU(s))")
        self.cp_device = cp.cuda.Device(self.device_id)
        self.identity = self.device_id
        prop = cp.cuda.runtime.getDeviceProperties(self.device_id)
        name = prop["name"]
        self.name = name.decode() if isinstance(name, bytes) else str(name)
        self.max_threads = int(prop["maxThreadsPerBlock"])
        self.rocm = bool(getattr(cp.cuda.runtime, "is_hip", False))
        self.arch = (prop.get("gcnArchName", b"").decode() if self.rocm else
                     f"sm_{prop['major']}{prop['minor']}")
        flags = props.get("compiler_flags", ())
        self.flags = tuple(flags.split() if isinstance(flags, str) else flags)
        self.minimal = not self.rocm and has_minimal(_nvrtc_version(cp))
        self.given_stream = _given_stream(cp, props.get("stream"), self.device_id)
        if self.given_stream is not None:
            # the Device's default stream, current on its GPU (as `with stream:` makes it), so
            # okl's launches and the application's CuPy work on it stay in order
            self.stream_use(self.given_stream)
        self._ndarray = cp.ndarray
        self._described: dict[int, tuple] = {}
        global _NDARRAY
        _NDARRAY = cp.ndarray

    # -- memory --------------------------------------------------------------------------------
    def describe(self, obj) -> ArrayInfo | None:
        """ArrayInfo of a launch argument.  Runs on every launch, so CuPy arrays (fixed dtype,
        shape and device for their whole life) are described once and remembered by a weak
        reference; okl.Memory remembers its own."""
        kind = type(obj)
        if kind is Memory:
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
        if iface is None:  # a host array of another library (a torch CPU tensor): refused
            return foreign.host_describe(obj)  # as numpy's is, naming dev.asarray
        dtype = np.dtype(iface["typestr"]) if not iface.get("descr") or \
            len(iface["descr"]) == 1 else np.dtype(iface["descr"])
        strides = iface.get("strides")
        contiguous = strides is None or strides == _c_strides(iface["shape"], dtype.itemsize)
        device = getattr(getattr(obj, "device", None), "id", self.device_id)
        return ArrayInfo(dtype, contiguous, bool(iface["data"][1]), "cuda", device,
                         f"{type(obj).__module__.split('.')[0]}.{type(obj).__name__}")

    def malloc(self, device, shape, dtype):
        cp = _cupy()
        with self.cp_device:
            if dtype.fields is not None:
                handle = cp.empty(int(np.prod(shape, dtype=object)) * dtype.itemsize, np.uint8)
            else:
                handle = cp.empty(shape, dtype)
        return Memory(device, handle, shape, dtype)

    def zeros(self, device, shape, dtype):
        return self.to_device(device, np.zeros(shape, dtype))

    def to_device(self, device, host: np.ndarray):
        mem = self.malloc(device, host.shape, host.dtype)
        self.write(mem, host)
        return mem

    def to_host(self, mem) -> np.ndarray:
        """A numpy copy of an allocation or a view (its handle is a CuPy view), after the
        current stream's work.  Reads of up to ``SMALL_READ`` bytes -- the scalar a solver
        reads back every iteration -- go through a page-locked staging buffer with one
        ``cudaMemcpyAsync`` and a stream synchronize: 13 us on an H100 where CuPy's ``get``
        into pageable memory took 20 and okl's general copy path 21 (a bare memcpy and
        synchronize: 11); CG does two such reads per iteration, each on its critical path
        (``benchmarks/results/h100-2026-11-27-cg-readback.txt``)."""
        nbytes = mem.nbytes
        if not 0 < nbytes <= SMALL_READ:
            raw = mem.handle.get()
            return raw.view(mem.dtype).reshape(mem.shape) if mem.dtype.fields is not None \
                else raw
        if self._staging is None:
            pinned = self.pinned((SMALL_READ,), np.dtype(np.uint8))
            self._staging = (pinned, pinned.ctypes.data, threading.Lock())
        buffer, address, lock = self._staging
        cuda = _cupy().cuda
        out = np.empty(mem.shape, mem.dtype)
        with self.on_device(), lock:
            stream = cuda.get_current_stream(self.device_id)
            cuda.runtime.memcpyAsync(address, mem.handle.data.ptr, nbytes,
                                     cuda.runtime.memcpyDeviceToHost, stream.ptr)
            stream.synchronize()
            out.reshape(-1).view(np.uint8)[:] = buffer[:nbytes]
        return out

    #: (page-locked buffer, its address, its lock), made at the first small read
    _staging: tuple | None = None

    def write(self, mem, host: np.ndarray) -> None:
        src = host.view(np.uint8).ravel() if mem.dtype.fields is not None else \
            host.reshape(mem.shape)
        with self.cp_device:
            mem.handle.set(src)

    def pinned(self, shape, dtype) -> np.ndarray:
        """Device.pinned: a numpy array in page-locked host memory (CuPy's pinned pool)."""
        cp = _cupy()
        with self.cp_device:
            try:
                import cupyx
                return cupyx.empty_pinned(shape, dtype)
            except (ImportError, AttributeError):  # a CuPy without cupyx.empty_pinned
                nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
                return np.ndarray(shape, dtype, cp.cuda.alloc_pinned_memory(max(nbytes, 1)))

    def release(self, mem) -> None:
        """Wait for queued kernels that may use the buffer, then give it back to CuPy's
        pool (Memory.free drops the last reference)."""
        self.finish()

    def on_device(self):
        """A context with this GPU current: ``cp_device``, or nothing where it already is
        (entering ``cp_device`` costs ~0.5 us, a read-back or a stream's finish ~10)."""
        if _cupy().cuda.runtime.getDevice() == self.device_id:
            return contextlib.nullcontext()
        return self.cp_device

    def finish(self) -> None:
        with self.on_device():
            _cupy().cuda.get_current_stream(self.device_id).synchronize()

    # -- streams and events (okl/runtime/stream.py) --------------------------------------------
    # An okl stream is a cupy.cuda.Stream; making it current makes it CuPy's current stream on
    # our device, which the launch paths read (_Driver.stream, the fast caller, RawKernel).
    # New streams are blocking ones (CuPy's default flags): they overlap with each other but
    # are ordered against the legacy null stream, the default stream's and CuPy's copies'.
    def stream_current(self):
        return _cupy().cuda.get_current_stream(self.device_id)

    def stream_default(self):
        return self.given_stream if self.given_stream is not None else self.stream_current()

    def stream_new(self):
        with self.cp_device:
            return _cupy().cuda.Stream()

    def stream_new_high(self):
        """A stream of the device's greatest priority (cudaStreamCreateWithPriority clamps
        any number below the range to it): its blocks are scheduled before pending blocks
        of normal streams, so a halo exchange does not queue behind a large kernel."""
        with self.cp_device:
            return _cupy().cuda.Stream(priority=-(1 << 20))

    def stream_use(self, stream) -> None:
        with self.cp_device:  # CuPy requires the stream's device to be current
            stream.use()

    def stream_finish(self, stream) -> None:
        # with our GPU current: the default stream (CuPy's null stream, handle 0) means the
        # legacy stream of whichever device is current, and synchronizing another GPU's
        # returned before this one's copies had landed (seen: ranks on GPU 1 read stale
        # all-reduce staging buffers on a 2-GPU host)
        with self.on_device():
            stream.synchronize()

    def stream_wait(self, stream, event, event_stream) -> None:
        with self.cp_device:  # (the null stream is the current device's, as stream_finish)
            stream.wait_event(event)  # cudaStreamWaitEvent: the host does not wait

    # -- graphs (okl/runtime/graph.py): CUDA stream capture --------------------------------
    def stream_capturing(self, stream) -> bool:
        """cudaStreamIsCapturing (ROCm's CuPy has no capture: never)."""
        return not self.rocm and bool(stream.is_capturing())

    def stream_capture_id(self, stream) -> int:
        """The id of the capture ``stream`` takes part in, 0 if none (CudaGraph.capture_id)."""
        if self.rocm:
            return 0
        with self.cp_device:
            return CudaGraph.capture_id(stream.ptr)

    def graph_begin(self, stream) -> None:
        if self.rocm:
            raise ArgumentError("Stream.capture: okl drives graphs on CUDA only, not on "
                                "ROCm's CuPy; queue the work directly")
        with self.cp_device:  # relaxed: other threads may allocate meanwhile
            stream.begin_capture(_cupy().cuda.runtime.streamCaptureModeRelaxed)

    def graph_end(self, stream) -> CudaGraph:
        with self.cp_device:
            return CudaGraph.end(stream.ptr)

    def graph_launch(self, graph: CudaGraph, stream) -> None:
        with self.on_device():
            graph.launch(stream.ptr)

    def event_record(self, stream):
        with self.cp_device:
            event = _cupy().cuda.Event()
            event.record(stream)
        return event

    def event_finish(self, event) -> None:
        event.synchronize()

    def event_seconds(self, start, end) -> float:
        return _cupy().cuda.get_elapsed_time(start, end) * 1e-3  # milliseconds

    # -- properties (okl.runtime.properties) ---------------------------------------------------
    def properties(self) -> dict:
        from ..properties import cuda_properties
        return cuda_properties(self)

    def kernel_properties(self, kernel, functions) -> dict:
        from ..properties import cuda_kernel_properties
        return cuda_kernel_properties(self, kernel, functions)

    # -- kernels -------------------------------------------------------------------------------
    def begin_build(self, device, source: str, flags: list[str]) -> Started | None:
        """NVRTC's cubin of ``source``, started on its own thread (okl.runtime.drivers.
        started), or None where ``build`` needs no NVRTC (loaded or cached already) or
        compiles through CuPy (ROCm)."""
        if self.rocm:
            return None
        options = self.compile_options(flags)
        if self._memo_key(device, source, options) in _LOADED:
            return None
        cubin = self._cubin_document(_cupy(), source, options)
        if cubin is None:
            return None
        nvrtc, document = cubin
        key = Cache.key(document)
        if device.cache.get("build", key) is not None:
            return None
        arch_options = [*options, f"--gpu-architecture={self.arch}"]

        def keep(cubin: bytes) -> None:
            """The cubin's build cache entry, written while the caller loads it (a cache
            write costs 1-2 ms on an H200 host); ``_cubin_build`` removes it again if the
            cubin does not load, and the build waits for it (Device._program), so that
            okl.mpi's recording sees it."""
            device.cache.put("build", key, {"module.cubin": cubin}, document)

        return Started(key, lambda: _nvrtc_cubin(nvrtc, source, arch_options), then=keep)

    def build(self, device, source: str, specs, flags: list[str],
              started: Started | None = None):
        """(functions by device-kernel name, binary cache hit).

        On NVIDIA GPUs the cubin is kept in okl's build cache, keyed on the source, the
        options, the GPU architecture and NVRTC's version: a new process (or another MPI rank,
        through okl.mpi) loads it without reaching NVRTC.  ROCm builds, and any source NVRTC
        will not turn into a cubin for this GPU here, go through CuPy's RawModule, whose own
        cache keeps the binary (hit: None).  ``started``: NVRTC already compiling this
        source (:meth:`begin_build`).
        """
        cp = _cupy()
        options = self.compile_options(flags)
        memo = self._memo_key(device, source, options)
        loaded = _LOADED.get(memo)  # this process loaded it on this GPU already
        if loaded is not None:
            return loaded[0], None if loaded[1] is None else True
        names = [d.name for s in specs for d in s.device_kernels]
        built = None if self.rocm else \
            self._cubin_build(cp, device, source, names, options, started)
        if built is None:
            built = self._compile(cp, source, names, options), None
        _LOADED[memo] = built
        return built

    def _memo_key(self, device, source: str, options: list[str]) -> tuple:
        """What ``_LOADED`` knows a module by: one per cache, GPU, source and options."""
        return str(device.cache.root), self.mode, self.device_id, source, tuple(options)

    def compile_options(self, flags: list[str]) -> list[str]:
        """NVRTC's (or hiprtc's) options for a build with the user's ``flags``; the cubin
        path adds ``--gpu-architecture`` (benchmarks.bench_build compiles okl's source
        with the same, to time NVRTC alone on it)."""
        options = ["-std=c++17", *([MINIMAL] if self.minimal else []), *self.flags, *flags]
        if self.mode == "hip" and not self.rocm:
            options.append(f"-I{HIP_INCLUDE}")
        return options

    def _cubin_document(self, cp, source: str, options: list[str]):
        """(CuPy's NVRTC binding, the build cache's document of this cubin), or None for a
        CuPy without that binding."""
        try:
            nvrtc = cp.cuda.nvrtc
            return nvrtc, {"okl": __version__, "mode": self.mode, "source": source,
                           "options": options, "arch": self.arch,
                           "nvrtc": list(nvrtc.getVersion())}
        except Exception as e:
            _say(f"cubin cache unavailable ({type(e).__name__}: {e})")
            return None

    def _cubin_build(self, cp, device, source: str, names: list[str], options: list[str],
                     started: Started | None):
        """(functions, hit) through okl's cache and NVRTC's cubin, or None: then CuPy
        compiles (which also reports the errors of a source NVRTC refuses, as before)."""
        cubin_document = self._cubin_document(cp, source, options)
        if cubin_document is None:
            return None
        nvrtc, document = cubin_document
        key = Cache.key(document)
        files = device.cache.get("build", key)
        if files is not None and files.get("module.cubin"):
            try:
                return self._load_cubin(cp, files["module.cubin"], names), True
            except Exception as e:
                _say(f"cached cubin {key[:12]} did not load ({type(e).__name__}: {e}); "
                     "compiling again")
        # NVRTC already compiling this source, and storing the cubin (begin_build)
        kept = started if started is not None and started.key == key else None
        try:
            cubin = kept.result() if kept is not None else \
                _nvrtc_cubin(nvrtc, source, [*options, f"--gpu-architecture={self.arch}"])
            functions = self._load_cubin(cp, cubin, names)
        except Exception as e:
            _say(f"NVRTC cubin path failed ({type(e).__name__}: {str(e)[:200]}); "
                 "compiling through CuPy")
            if kept is not None:  # a cubin that does not load stays out
                kept.close()
                device.cache.discard("build", key)
            return None
        if kept is None:
            device.cache.put("build", key, {"module.cubin": cubin}, document)
        return functions, False

    def _load_cubin(self, cp, cubin: bytes, names: list[str]) -> dict:
        """The device kernels of a cubin, as CuPy RawKernels (what launches and
        Kernel.properties use).  CuPy loads a module from a file: a private copy of the
        verified bytes, removed once loaded."""
        fd, path = tempfile.mkstemp(prefix="okl-", suffix=".cubin")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(cubin)
            with self.cp_device:
                module = cp.RawModule(path=path)
                return _Functions({name: module.get_function(name) for name in names},
                                  cubin)
        finally:
            os.unlink(path)

    def _compile(self, cp, source: str, names: list[str], options: list[str]) -> dict:
        """CuPy's build: where NVRTC made no cubin (its errors are the ones reported), and
        on ROCm; without MINIMAL, which a source that failed may have needed left out."""
        options = without_minimal(options)
        with self.cp_device:
            module = cp.RawModule(code=source, options=tuple(options))
            try:
                functions = {name: module.get_function(name) for name in names}
            except cp.cuda.compiler.CompileException as e:
                log = e.get_message() if hasattr(e, "get_message") else str(e)
                raise BuildError(f"{self.mode} build failed (NVRTC, {self.arch}):\n"
                                 f"{map_log(log, source)}", command=["nvrtc", *options],
                                 log=log) from None
        return functions

    # -- ahead-of-time bundles (okl.runtime.bundle) --------------------------------------------
    def binary(self, functions) -> bytes:
        """The cubin of a built module (NVRTC's, as the build cache keeps it)."""
        cubin = getattr(functions, "cubin", None)
        if cubin is None:
            how = "ROCm builds are kept by CuPy's own cache" if self.rocm else \
                "NVRTC made no cubin for it here and CuPy compiled it (OKL_VERBOSE=1 says why)"
            raise BundleError(f"this {self.mode} build has no binary okl can bundle: {how}")
        return cubin

    def binary_target(self, flags: list[str]) -> dict:
        """The GPU architecture a cubin is for, and how NVRTC made it."""
        nvrtc = _nvrtc_version(_cupy())
        return {"arch": self.arch, "gpu": self.name, "rocm": self.rocm,
                "options": [*self.compile_options(flags), f"--gpu-architecture={self.arch}"],
                "nvrtc": None if nvrtc is None else list(nvrtc)}

    def binary_refusal(self, target: dict) -> str:
        """Why a cubin built for ``target`` does not run on this GPU ("" when it does: the
        same major architecture, and a minor one at least the cubin's, as CUDA allows)."""
        built, here = str(target.get("arch")), self.arch
        if built == here:
            return ""
        b, h = re.fullmatch(r"sm_(\d+?)(\d)", built), re.fullmatch(r"sm_(\d+?)(\d)", here)
        if b and h and b.group(1) == h.group(1) and int(h.group(2)) >= int(b.group(2)):
            return ""
        return (f"it was built for {built} ({target.get('gpu')}) and this {self.name} is "
                f"{here}; build it on (or for) this GPU's architecture")

    def load_binary(self, device, binary: bytes, specs, target: dict):
        """The functions of a bundle's cubin, loaded by the CUDA driver (no NVRTC)."""
        names = [d.name for s in specs for d in s.device_kernels]
        try:
            return self._load_cubin(_cupy(), binary, names)
        except Exception as e:
            raise BundleError(f"the CUDA driver refused its cubin for {self.arch}: "
                              f"{type(e).__name__}: {e}") from None

    def launcher(self, kernel, functions):
        """The general path: ``launch(args, values)`` after the kernel's converters."""
        cp = _cupy()
        spec = kernel.spec
        direct = self._direct_enqueue(kernel, functions)
        if direct is not None:
            return gpu_launcher(spec, _pointer_or_null, _keep, direct)
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

    def caller(self, kernel, functions):
        """The fast path for kernels whose host code launches one device kernel: one
        generated function checks the arguments, fills kernelParams and calls
        cuLaunchKernel.  None (the general path is used) when that is unavailable."""
        spec = kernel.spec
        if not trivial_host(spec):
            return None
        direct = self._direct(kernel, functions, 0)
        if direct is None:
            return None
        try:
            d = spec.device_kernels[0]
            dims = compile_function(d.dims_src, "_dims", f"<okl grid of {d.name}>")
            # The launch itself is written out here (one Python call less than go()); go()
            # takes every case but the common one: another device current, an error.  The
            # grid comes from a memo keyed by the scalar values it depends on (a launch loop
            # repeats them), as a flat tuple (grid x, y, z, block x, y, z), empty when a
            # dimension is 0.  Where the process sees one GPU, no other device can be
            # current, so the test for one is left out (a thread with no context at all
            # still takes _check's retry).
            launch = ["            try:",
                      "                _cul(_f, *_gb, 0, _gcs(_devid).ptr, _base, 0)",
                      "            except Exception as _e:",
                      "                _check(_gb[:3], _gb[3:], _base, _e)"]
            if self.gpu_count == 1:
                launch = [line[4:] for line in launch]
            else:
                launch = ["        if _getdev() == _devid:", *launch,
                          "        else:", "            _go(_gb[:3], _gb[3:], _base)"]
            tail = ["    _gb = _grids.get(_ek)",
                    "    if _gb is None:",
                    "        _gb = _grid(_ek, _env)",
                    "    if _gb:", *launch]
            def flat_grid(env: dict) -> tuple:
                outer, inner = dims(env)
                return (*outer, *(1,) * (3 - len(outer)), *inner, *(1,) * (3 - len(inner))) \
                    if min(outer) > 0 and min(inner) > 0 else ()

            grids, grid = memoized(flat_grid)
            return compile_caller(kernel, device_pointers=True, pointer_value=_device_pointer,
                                  memo_key="_device_pointer", tail=tail,
                                  names={"_grids": grids, "_grid": grid, **direct.names},
                                  env=env_names([d.dims_src]), array_type=self._ndarray)
        except Exception as e:  # never worse than the general path
            _say(f"fast launch path unavailable for {kernel.name} ({type(e).__name__}: {e})")
            return None

    # -- launches through the CUDA driver ------------------------------------------------------
    def _driver(self):
        """What direct launches need, set up once per backend (a _Driver), or None: then
        launches go through CuPy."""
        if os.environ.get("OKL_LAUNCH", "").strip().lower() == "cupy":
            _say("OKL_LAUNCH=cupy: launching through CuPy")
            return None
        if "_driver_setup" not in self.__dict__:
            setup = None
            if not self.rocm:  # tried on NVIDIA GPUs only
                try:
                    setup = _Driver(_cupy(), self.device_id)
                except Exception as e:
                    _say(f"cuLaunchKernel unavailable ({type(e).__name__}: {e}); launching "
                         "through CuPy")
            self._driver_setup = setup
        return self._driver_setup

    def _direct(self, kernel, functions, k: int):
        """Direct launches of device kernel k (a _Direct), or None if unavailable."""
        global _binding_checked
        drv = self._driver()
        if drv is None:
            return None
        d = kernel.spec.device_kernels[k]
        n = len(kernel.spec.params) + len(d.captured)
        memo = (self.device_id, id(functions[d.name]), n)
        found = _DIRECTS.get(memo)
        if found is not None and found[0] is functions[d.name]:
            return found[1]  # probed before: a warm build makes no driver call
        try:
            with self.cp_device:
                f = int(functions[d.name].kernel.ptr)
                if not _binding_checked:
                    # A launch of no blocks checks that the binding takes our arguments: the
                    # driver refuses it (CUDA_ERROR_INVALID_VALUE) and nothing runs.  The
                    # binding is the same for every function, GPU and Device: checked once per
                    # process.  (Per function, this set-up took 0.18-0.38 ms of each cold
                    # build on an H200 host, 0.04-0.05 without the probe: benchmarks/results/
                    # h200-2026-11-29-cold-build-setup.txt.)
                    probe = (ctypes.c_uint64 * (3 * max(n, 1)))()
                    base = ctypes.addressof(probe)
                    for j in range(n):
                        probe[j] = base + 8 * n + 16 * j
                    try:
                        drv.launch(f, 0, 0, 0, 0, 0, 0, 0, drv.probe_stream(), base, 0)
                    except drv.Error:
                        pass
                    _binding_checked = True
        except Exception as e:
            _say(f"direct launch of {d.name} unavailable ({type(e).__name__}: {e}); "
                 "launching through CuPy")
            return None
        direct = _Direct(drv, f, d.name, self.device_id, self.cp_device)
        _DIRECTS[memo] = (functions[d.name], direct)
        return direct

    def _direct_enqueue(self, kernel, functions):
        """``enqueue(k, outer, inner, raw)`` through cuLaunchKernel for the general path
        (raw: device pointers or 0, and 0-d arrays for scalars), or None."""
        spec = kernel.spec
        directs = [self._direct(kernel, functions, k) for k in range(len(spec.device_kernels))]
        if not directs or any(d is None for d in directs):
            return None
        gos = [d.go for d in directs]
        layouts = []
        for d in spec.device_kernels:
            kinds = [p.is_pointer for p in spec.params] + [False] * len(d.captured)
            fmt = "@" + "P" * max(len(kinds), 1)
            offsets = {}
            for j, is_pointer in enumerate(kinds):
                if is_pointer:
                    offsets[j] = struct.calcsize(fmt + "Q") - 8
                    fmt += "Q"
            size = struct.calcsize(fmt)
            layouts.append((ctypes.c_uint64 * max((size + 7) // 8, 1),
                            struct.Struct(fmt).pack_into, offsets))

        def enqueue(k, outer, inner, raw):
            buf_type, pack, offsets = layouts[k]
            buf = buf_type()
            base = ctypes.addressof(buf)
            slots = [base + offsets[j] if j in offsets else array_address(r)
                     for j, r in enumerate(raw)]
            pack(buf, 0, *(slots or [0]), *[raw[j] for j in offsets])
            gos[k](outer, inner, base)  # raw keeps the scalars alive until the call returns
        return enqueue


class _Driver:
    """cuLaunchKernel as direct launches on one device call it.

    CuPy's binding (``cupy.cuda.driver.launchKernel``) is a Cython function of plain integers
    -- function, grid, block, shared bytes, stream, kernelParams, extra -- that raises
    ``CUDADriverError`` on failure: about a microsecond less per launch than cuda-python's
    ``cuLaunchKernel``, which wraps its handles in objects and returns a ``CUresult`` enum
    member built per call (the driver call alone on an H100: 5.09 against 5.66 µs,
    benchmarks/results/h100-2026-11-24-s3-profile-launch.txt, from
    ``python -m benchmarks.profile_launch --mode cuda``; 4.52 against 6.97 µs in another run)."""

    def __init__(self, cp, device_id: int):
        driver = cp.cuda.driver
        self._cp = cp
        self._probe: Any = None  # probe_stream's, made at its first use
        self.launch = driver.launchKernel
        self.Error = driver.CUDADriverError
        self.device_id = device_id
        self.current_stream = cp.cuda.get_current_stream  # (device id) -> cupy Stream

    def stream(self) -> int:
        """CuPy's current stream on our device (which must be current), as a CUstream."""
        return self.current_stream(self.device_id).ptr

    def probe_stream(self) -> int:
        """A non-blocking stream of our own for the probe launches (which the driver refuses):
        a refused launch on a stream being captured (okl.runtime.graph) would end the
        capture, and on the legacy stream it would wait for the capturing one."""
        if self._probe is None:
            self._probe = self._cp.cuda.Stream(non_blocking=True)
        return self._probe.ptr


class _Direct:
    """cuLaunchKernel of one device kernel: ``go(outer, inner, params)`` takes every case;
    ``names`` is what the generated fast path needs to write the common case out."""

    def __init__(self, drv: _Driver, f: int, name: str, device_id: int, cp_device):
        self.drv, self.f, self.name = drv, f, name
        self.device_id, self.cp_device = device_id, cp_device
        cp = _cupy()
        self.get_device = cp.cuda.runtime.getDevice
        self.free = cp.cuda.runtime.free
        self.names = {"_cul": drv.launch, "_f": f, "_getdev": self.get_device,
                      "_devid": device_id, "_gcs": drv.current_stream, "_check": self.check,
                      "_go": self.go}

    def fail(self, outer, inner, why) -> LaunchError:
        if isinstance(why, BaseException):
            why = f"{type(why).__name__}: {why}"
        grid = tuple(outer) + (1,) * (3 - len(outer))
        block = tuple(inner) + (1,) * (3 - len(inner))
        return LaunchError(f"launching {self.name} with grid {grid} and block {block} "
                           f"failed: {why}")

    def go(self, outer, inner, params) -> None:
        if self.get_device() != self.device_id:
            self.retry(outer, inner, params)
            return
        g, b = (*outer, 1, 1), (*inner, 1, 1)
        try:
            self.drv.launch(self.f, g[0], g[1], g[2], b[0], b[1], b[2], 0, self.drv.stream(),
                            params, 0)
        except Exception as e:
            self.check(outer, inner, params, e)

    def check(self, outer, inner, params, error: Exception) -> None:
        """A launch raised ``error``: nothing ran.  CUDA_ERROR_INVALID_CONTEXT (this thread
        has no context yet) is retried with our device's primary context bound; anything
        else (an error of the driver, a grid beyond 2**32) is a LaunchError."""
        if isinstance(error, self.drv.Error) and getattr(error, "status", None) == 201:
            self.retry(outer, inner, params, bind=True)
        else:
            raise self.fail(outer, inner, error) from None

    def retry(self, outer, inner, params, bind: bool = False) -> None:
        """Launch with our device made current (``bind``: and its primary context bound to
        this thread, which any runtime call does)."""
        g, b = (*outer, 1, 1), (*inner, 1, 1)
        with self.cp_device:
            if bind:
                self.free(0)
            try:
                self.drv.launch(self.f, g[0], g[1], g[2], b[0], b[1], b[2], 0,
                                self.drv.stream(), params, 0)
            except Exception as e:
                raise self.fail(outer, inner, e) from None


def _nvrtc_cubin(nvrtc, source: str, options: list[str]) -> bytes:
    """NVRTC's cubin of ``source`` (CuPy's binding of NVRTC; raises on any failure).  Where
    a compile with MINIMAL fails, the source may name what MINIMAL leaves out (a kernel's
    own code can: ``cudaSuccess``), or this NVRTC may not know the option: it compiles again
    without it, and that compile's result or error is the answer."""
    try:
        return _nvrtc_compile(nvrtc, source, options)
    except Exception as e:
        if MINIMAL not in options:
            raise
        _say(f"NVRTC {MINIMAL} did not compile it ({type(e).__name__}: {str(e)[:200]}); "
             f"compiling without {MINIMAL}")
    return _nvrtc_compile(nvrtc, source, without_minimal(options))


def _nvrtc_compile(nvrtc, source: str, options: list[str]) -> bytes:
    program = nvrtc.createProgram(source, "okl.cu", (), ())
    try:
        nvrtc.compileProgram(program, options)
        return nvrtc.getCUBIN(program)
    finally:
        nvrtc.destroyProgram(program)


def _nvrtc_version(cp) -> tuple[int, ...] | None:
    """NVRTC's (major, minor) as CuPy reports it; None where it cannot say."""
    try:
        return tuple(cp.cuda.nvrtc.getVersion())
    except Exception:
        return None


def without_minimal(options: list[str]) -> list[str]:
    """``options`` less MINIMAL."""
    return [o for o in options if o != MINIMAL]


def has_minimal(version: tuple[int, ...] | None) -> bool:
    """Whether an NVRTC of ``version`` (None: unknown) takes MINIMAL."""
    return version is not None and version >= MINIMAL_SINCE


def _given_stream(cp, stream, device_id: int):
    """``stream=``: a cupy.cuda.Stream (or ExternalStream) of the Device's GPU, or None."""
    if stream is None:
        return None
    kinds = tuple(k for k in (getattr(cp.cuda, "Stream", None),
                              getattr(cp.cuda, "ExternalStream", None)) if k is not None)
    if not isinstance(stream, kinds):
        raise ArgumentError(f"okl.Device(stream=...) takes a cupy.cuda.Stream, got "
                            f"{type(stream).__name__}")
    where = getattr(stream, "device_id", -1)
    if where not in (-1, device_id):
        raise ArgumentError(f"okl.Device(stream=...): the stream is on GPU {where}, the "
                            f"Device on GPU {device_id}; pass device_id={where}")
    return stream


def _keep(v: np.ndarray):
    return v


def _say(message: str) -> None:
    say(message)  # OKL_VERBOSE: to stderr through logging (okl/runtime/verbose.py)


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


_NDARRAY = None  # cupy.ndarray, bound by the first backend (importing CuPy costs a second)


def _pointer(value):
    if value is None:
        return None
    kind = type(value)
    if kind is _NDARRAY:
        return value
    if kind is Memory:
        return value.handle
    handle = getattr(value, "handle", None)
    if handle is not None:
        return handle
    if hasattr(value, "data") and hasattr(value, "device") and \
            type(value).__module__.startswith("cupy"):
        return value
    return _cupy().asarray(value)


def _pointer_or_null(value) -> int:
    return 0 if value is None else _device_pointer(value)


def _device_pointer(value) -> int:
    """The device address an accepted pointer argument stands for (what CuPy would pass)."""
    kind = type(value)
    if kind is _NDARRAY:
        return value.data.ptr
    if kind is Memory:
        address = value.__dict__.get("_device_pointer")
        if address is None:
            address = value.__dict__["_device_pointer"] = value.handle.data.ptr
        return address
    handle = getattr(value, "handle", None)
    if handle is not None:
        return _device_pointer(handle)
    if hasattr(value, "data") and hasattr(value, "device") and \
            type(value).__module__.startswith("cupy"):
        return value.data.ptr
    return _cupy().asarray(value).data.ptr
