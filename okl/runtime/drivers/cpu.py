"""serial and openmp modes: compile the C translation into a shared library, call it by ctypes.

Host memory is device memory here, so C-contiguous numpy arrays pass straight through.
Every kernel is called through its ``_okl_entry_<name>(void **args)`` wrapper: ``args[i]``
is the address of scalar i or the data pointer of array i.  A launch fills one ctypes buffer
(the slots, then the scalars' storage) from a function generated per kernel
(``okl.runtime.launch.gpu.compile_caller``), so checking the arguments and calling costs a few
microseconds (okl.runtime.drivers.cpu_native does the common case in C).  The compiler is ``$CC``
(else ``cc``) with ``-O3 -march=native`` (and, for gcc, ``GCC_FLAGS``); ``compiler`` and
``compiler_flags`` device properties override both.
"""

from __future__ import annotations

import ctypes
import functools
import math
import os
import platform
import shlex
import shutil
import subprocess
import tempfile
import time

import numpy as np

from ...errors import ArgumentError, BackendUnavailableError, BuildError, BundleError
from ...version import __version__
from ..buildlog import map_log
from ..cache import Cache
from ..cache import memo as process_memo
from ..launch import foreign
from ..launch.args import ArrayInfo
from ..launch.bounds_check import bounds_check
from ..launch.gpu import array_address, compile_caller, env_names
from ..launch.hostrun import compile_function
from ..memory import Memory
from ..properties import host_cpu, host_kernel_properties, host_properties
from ..verbose import say
from . import cpufeatures
from .cpu_interrupt import Trap, untrapped
from .cpu_native import native_caller
from .toolrun import build_timeout, keep_source, run_compiler, run_tool

DEFAULT_FLAGS = ("-O3", "-march=native")
#: gcc only: loops stay loops.  gcc turns a loop that copies or clears a run of memory into a
#: call of memcpy/memmove/memset: for the runs a GPU kernel's blocks copy on a CPU (a tile, a
#: k-slab of BK5's registers) a library call per run, and for a whole array a memmove that
#: streamed 3-5 % slower than the vector loop the hand C peers compile to.
GCC_FLAGS = ("-fno-tree-loop-distribute-patterns",)


@functools.cache
def _version(compiler: str) -> tuple[str, str]:
    """(resolved command, ``--version`` output) of a compiler; ("", "") if it cannot run."""
    words = _words(compiler)
    path = shutil.which(words[0]) if words else None
    if path is None:
        return "", ""
    try:
        out = run_tool([path, *words[1:], "--version"], timeout=min(30.0, build_timeout()))
    except (OSError, subprocess.TimeoutExpired):
        return "", ""
    return shlex.join([os.path.realpath(path), *words[1:]]), out.stdout or out.stderr


def compiler_identity(compiler: str) -> str:
    """`cc --version`'s first line plus the resolved path: part of every build's cache key."""
    command, text = _version(compiler)
    if not command:
        return ""
    first = text.splitlines()
    return f"{command} {first[0] if first else ''}"


def is_gcc(compiler: str) -> bool:
    """gcc under any name (``cc``, ``gcc-12``): its ``--version`` names the FSF, clang's not."""
    return "Free Software Foundation" in _version(compiler)[1]


#: how openmp_works begins its reason when the compiler did not finish
TIMED_OUT = "it ran for more than"


@functools.cache
def openmp_works(compiler: str) -> str:
    """'' when `compiler -fopenmp` links a program, else the reason."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "t.c")
        with open(src, "w") as f:
            f.write("#include <omp.h>\nint main(void){return omp_get_max_threads() > 0 ? 0 : 1;}\n")
        limit = min(60.0, build_timeout())  # OKL_BUILD_TIMEOUT bounds every compiler call
        try:
            r = run_tool([*_words(compiler), "-fopenmp", src, "-o", os.path.join(tmp, "t")],
                         timeout=limit)
        except OSError as e:
            return str(e)
        except subprocess.TimeoutExpired:
            return f"{TIMED_OUT} {limit:g} s (OKL_BUILD_TIMEOUT)"
        return "" if r.returncode == 0 else r.stderr.strip().splitlines()[-1:][0] if \
            r.stderr.strip() else f"exit {r.returncode}"


class CPUBackend:
    kind = "host"
    identity = None  # all CPU devices share host memory

    def __init__(self, mode: str, props: dict):
        self.mode = mode
        self.compiler = props.get("compiler") or os.environ.get("CC") or "cc"
        flags = props.get("compiler_flags")
        if isinstance(flags, str):
            flags = shlex.split(flags)
        self.flags = list(flags) if flags is not None else list(DEFAULT_FLAGS)
        reason = self.unavailable(mode, self.compiler)
        if reason and props.get("compiler"):  # the compiler asked for: wrong now, not later
            raise BackendUnavailableError(reason)
        #: why this Device cannot compile ("" when it can): it still loads bundles, which
        #: need no compiler (a compute node without one), and build() raises this
        self.cannot_build = reason
        if flags is None and is_gcc(self.compiler):
            self.flags += GCC_FLAGS
        if mode == "openmp":
            self.flags.append("-fopenmp")
        self.name = f"{mode} ({host_cpu()})"
        self.arch = platform.machine()

    @staticmethod
    def unavailable(mode: str, compiler: str | None = None) -> str:
        compiler = compiler or os.environ.get("CC") or "cc"
        words = _words(compiler)
        if not words or shutil.which(words[0]) is None:
            return (f"C compiler '{compiler}' not found: install gcc or clang (apt-get install "
                    "gcc) or set CC")
        if mode == "openmp":
            why = openmp_works(compiler)
            if why.startswith(TIMED_OUT):  # hung: not a missing runtime
                return (f"'{compiler} -fopenmp' did not finish ({why}): check the compiler "
                        "(CC) or allow it more time with OKL_BUILD_TIMEOUT=<seconds>")
            if why:
                return (f"'{compiler} -fopenmp' does not work ({why}): install the OpenMP "
                        "runtime (apt-get install libgomp1, or libomp-dev for clang)")
        return ""

    # -- memory: numpy arrays ------------------------------------------------------------------
    def describe(self, obj) -> ArrayInfo | None:
        if isinstance(obj, np.ndarray):
            return ArrayInfo(obj.dtype, obj.flags.c_contiguous, not obj.flags.writeable,
                             "host", None, "numpy.ndarray")
        if type(obj) is Memory:
            return obj.info()
        info = getattr(obj, "info", None)
        if callable(info) and hasattr(obj, "handle"):
            return info()
        return foreign.describe(obj)  # a torch CPU tensor... (launch.foreign)

    def malloc(self, device, shape, dtype):
        return Memory(device, aligned_empty(shape, dtype), shape, dtype)

    def zeros(self, device, shape, dtype):
        return Memory(device, aligned_zeros(shape, dtype), shape, dtype)

    def to_device(self, device, host: np.ndarray):
        return Memory(device, aligned_copy(host), host.shape, host.dtype)

    def to_host(self, mem) -> np.ndarray:
        return mem.handle.copy()

    def write(self, mem, host: np.ndarray) -> None:
        mem.handle[...] = host.reshape(mem.shape)

    def pinned(self, shape, dtype) -> np.ndarray:
        """Device.pinned: host memory is all there is, so a numpy array (aligned as the
        Device's own buffers are)."""
        return aligned_empty(shape, dtype)

    def release(self, mem) -> None:
        """Launches are synchronous: dropping the array (Memory.free) releases it."""

    def finish(self) -> None:
        """CPU launches are synchronous."""

    # -- streams and events (okl/runtime/stream.py): work is done when a call returns -------
    def stream_default(self):
        return None

    stream_new = stream_current = stream_default

    def stream_use(self, handle) -> None:
        """Launches run on the calling thread: one stream is as good as another."""

    def stream_finish(self, handle) -> None:
        """Nothing is ever queued."""

    def stream_wait(self, handle, event, event_stream) -> None:
        """What came before the event has run already."""

    def event_record(self, handle) -> float:
        return time.perf_counter()

    def event_finish(self, event) -> None:
        """Reached when recorded."""

    def event_seconds(self, start: float, end: float) -> float:
        return end - start

    # -- properties (okl.runtime.properties) ---------------------------------------------------
    def properties(self) -> dict:
        return host_properties(self)

    def kernel_properties(self, kernel, module) -> dict:
        return host_kernel_properties(self, kernel)

    # -- kernels -------------------------------------------------------------------------------
    def begin_build(self, device, source: str, flags: list[str]) -> None:
        """None: the C compiler starts in ``build``.  It runs 0.1-0.3 s, against 1-2 ms of
        what could run beside it, and a compiler started earlier would have to be stopped
        by whichever call a Ctrl-C interrupts (okl.runtime.drivers.toolrun)."""
        return None

    def build(self, device, source: str, specs, flags: list[str], started: None = None):
        """Compile (or load from the build cache) the shared library of one translation.

        Returns (module, cache hit).  A fresh build is loaded from its private build
        directory before it is stored, so a library that compiles but cannot be loaded
        (an undefined symbol) raises BuildError and never enters the cache.  A cached library
        is loaded from a private copy of the bytes the cache verified, never from the entry,
        which another process could replace between the check and the load (cache.py).
        """
        if self.cannot_build:
            raise BackendUnavailableError(f"{self.cannot_build} (loading an ahead-of-time "
                                          "bundle, Device.load_kernel, needs no compiler)")
        document = {"okl": __version__, "mode": self.mode, "source": source,
                    "extra_flags": flags, **self.build_identity()}
        key = Cache.key(document)
        memo = (str(device.cache.root), key)
        module = _LOADED.get(memo)  # loaded by this process already: one library serves all
        if module is not None:
            return module, True
        module, hit = self._build(device, key, document, source, specs, flags)
        _LOADED[memo] = module
        return module, hit

    def _build(self, device, key: str, document: dict, source: str, specs, flags: list[str]):
        cache = device.cache
        files = cache.get("build", key)
        if files is not None and "kernel.so" in files:
            try:
                return self._load_bytes(files["kernel.so"], specs), True
            except (OSError, AttributeError) as e:
                _say(f"cached library {key[:12]} did not load ({e}): building it again")
        # removed however the build ends (an error, a timeout, Ctrl-C): a failed build's
        # BuildError points to a kept copy of its source instead (toolrun.keep_source)
        workdir = tempfile.mkdtemp(prefix="okl-build-")
        try:
            files = self.compile(source, workdir, flags)
            try:
                module = self.load(os.path.join(workdir, "kernel.so"), specs)
            except (OSError, AttributeError) as e:
                kept = keep_source(source, ".c")
                raise BuildError(
                    f"{self.mode} build produced a library that does not load:\n  {e}\n"
                    f"  generated source: {kept}",
                    command=None, returncode=None, log=str(e), source_path=kept) from None
            cache.put("build", key, files, document)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)  # the loaded library stays mapped
        return module, False

    def _load_bytes(self, data: bytes, specs):
        with tempfile.TemporaryDirectory(prefix="okl-load-") as tmp:
            path = os.path.join(tmp, "kernel.so")
            with open(path, "wb") as f:
                f.write(data)
            return self.load(path, specs)

    def launcher(self, kernel, module):
        """The general path, ``launch(args, values)`` after the kernel's converters; used
        when the fast path (``caller``) could not be set up."""
        fn = module[kernel.name]
        params = kernel.spec.params  # the hidden ones of checked mode too
        slots = ctypes.c_void_p * max(len(params), 1)
        pointer = [p.is_pointer for p in params]
        limits = [compile_function(src, "_dims", f"<okl limits of {kernel.name}>")
                  for src in kernel.spec.limits]
        scalars = [(i, p.name) for i, p in enumerate(params) if not p.is_pointer]
        bounds = bounds_check(kernel.spec)
        run = _runner(module)  # Ctrl-C stops the kernel (cpu_interrupt)

        def launch(args, values):
            if limits or bounds is not None:
                env = {name: values[i].item() if values[i].dtype.fields is None else values[i]
                       for i, name in scalars}
                for check in limits:
                    check(env)
                if bounds is not None:
                    bounds(env, args)
            ptrs = slots()
            for i, v in enumerate(values):
                ptrs[i] = _address(v) if pointer[i] else array_address(v)
            run(fn, ptrs)
        return launch

    def caller(self, kernel, module):
        """The fast path: ``call(*args, **kwargs)`` checks, converts and calls the kernel's
        entry in one generated function (see okl.runtime.launch.gpu.compile_caller), itself
        behind the native caller where that can serve (okl.runtime.drivers.cpu_native); None if
        neither can be set up, and the general path is used."""
        try:
            entry = module["_lib"][kernel.spec.entry]  # a function object of our own
            entry.argtypes = None  # the ctypes buffer is passed as its address
            entry.restype = None
            limits = [compile_function(src, "_dims", f"<okl limits of {kernel.name}>")
                      for src in kernel.spec.limits]
            tail = ["    for _check in _limits:", "        _check(_env)"] if limits else []
            fast = compile_caller(kernel, device_pointers=False, pointer_value=_address,
                                  memo_key="_address", tail=tail + ["    _run(_entry, _buf)"],
                                  names={"_entry": entry, "_limits": limits,
                                         "_run": _runner(module)},
                                  env=env_names(kernel.spec.limits) if limits else False)
        except Exception as e:  # never worse than the general path
            _say(f"fast launch path unavailable for {kernel.name} ({type(e).__name__}: {e})")
            return None
        # the common arguments checked in C, everything else by ``fast`` (cpu_native)
        native = native_caller(kernel, entry, fast, fast.bounds, bool(limits), self.compiler,
                               kernel.device.cache, module.get("_trap"))
        return fast if native is None else native

    def build_identity(self) -> dict:
        return {"compiler": compiler_identity(self.compiler), "flags": self.flags,
                "cpu": host_cpu(), "machine": platform.machine()}

    def compile(self, source: str, workdir: str, extra: list[str]) -> dict[str, bytes]:
        """Compile to a shared library; returns the files to cache."""
        src = os.path.join(workdir, "kernel.c")
        lib = os.path.join(workdir, "kernel.so")
        with open(src, "w", encoding="utf-8") as f:
            f.write(source)
        # A call to an undeclared function must fail here, with the .okl line, rather than
        # when the library is loaded.  Relative names keep the binary independent of the
        # temporary directory, so concurrent builders of one key write identical files.
        words = _words(self.compiler)  # CC may carry words of its own ("ccache gcc")
        cmd = [shutil.which(words[0]) or words[0], *words[1:], *self.flags, *extra, "-std=gnu99",
               "-Werror=implicit-function-declaration", "-fPIC", "-shared", "kernel.c", "-o",
               "kernel.so", "-lm"]
        _say_command(cmd)
        try:
            r = run_compiler(cmd, workdir, f"{self.mode} build")  # OKL_BUILD_TIMEOUT
        except OSError as e:
            raise BuildError(f"{self.mode} build could not run '{self.compiler}': {e}",
                             command=cmd, returncode=None, log=str(e),
                             source_path=keep_source(source, ".c")) from None
        if r.returncode != 0:
            kept = keep_source(source, ".c")  # the build folder does not outlive the build
            raise BuildError(
                f"{self.mode} build failed (exit {r.returncode}):\n"
                f"  {shlex.join(cmd)}\n{map_log(r.stderr)}\n"
                f"  generated source (the command's kernel.c): {kept}",
                command=cmd, returncode=r.returncode, log=r.stderr, source_path=kept)
        try:
            with open(lib, "rb") as f:
                return {"kernel.so": f.read(), "kernel.c": source.encode()}
        except FileNotFoundError:
            kept = keep_source(source, ".c")
            raise BuildError(f"{self.mode} build: '{self.compiler}' exited with 0 but wrote no "
                             f"kernel.so:\n  {shlex.join(cmd)}\n  generated source (the "
                             f"command's kernel.c): {kept}\n  check that CC (or the compiler "
                             "property) names a C compiler",
                             command=cmd, returncode=0, log=r.stderr, source_path=kept) from None

    def load(self, path: str, specs):
        lib = ctypes.CDLL(path)
        out = {}
        for info in specs:
            fn = getattr(lib, info.entry)
            fn.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]  # args, stop
            fn.restype = None
            out[info.name] = fn
        out["_lib"] = lib
        out["_trap"] = Trap.of(lib)  # its Ctrl-C flag and handler (cpu_interrupt)
        with open(path, "rb") as f:  # what Device.load_kernel can load again (bundles)
            out["_binary"] = f.read()
        return out

    # -- ahead-of-time bundles (okl.runtime.bundle) --------------------------------------------
    def binary(self, module) -> bytes:
        """The shared library of a built module."""
        return module["_binary"]

    def binary_target(self, flags: list[str]) -> dict:
        """What the library built here with ``flags`` needs: the machine and the CPU features
        the compiler may have used (cpufeatures); the compiler, its flags and the CPU model
        are written for the record."""
        words = _words(self.compiler)
        command = [shutil.which(words[0]) or words[0], *words[1:]] if words else []
        return {"machine": platform.machine(), "cpu": host_cpu(),
                "compiler": compiler_identity(self.compiler), "flags": [*self.flags, *flags],
                "features": cpufeatures.compiled_for(command, [*self.flags, *flags])}

    def binary_refusal(self, target: dict) -> str:
        """Why a library built for ``target`` cannot run on this CPU ("" when it can)."""
        machine = target.get("machine")
        if machine != platform.machine():
            return f"it was built for {machine} CPUs and this one is {platform.machine()}"
        lacking = cpufeatures.missing(list(target.get("features", [])))
        if lacking:
            flags = " ".join(f for f in target.get("flags", []) if f.startswith("-m"))
            return (f"it was built ({flags or 'default flags'}) on a {target.get('cpu')} for "
                    f"CPU features this {host_cpu()} lacks: {', '.join(lacking)}; build it "
                    "on a CPU of this kind, or for the oldest CPU it must run on "
                    "(compiler_flags without -march=native, e.g. -O3 -march=x86-64-v2)")
        return ""

    def load_binary(self, device, binary: bytes, specs, target: dict):
        """The module of a library from a bundle, loaded with no compiler."""
        try:
            return self._load_bytes(binary, specs)
        except (OSError, AttributeError) as e:
            raise BundleError(f"its {self.mode} library does not load here ({e}); "
                              "build the bundle for this system") from None


def _runner(module: dict):
    """``run(entry, args)``: the entry called under the library's Ctrl-C trap, if it has one."""
    trap = module.get("_trap")
    return untrapped if trap is None else trap.call


def _address(value) -> int | None:
    if value is None:
        return None
    if isinstance(value, np.ndarray):
        return array_address(value)
    if not isinstance(value, Memory):  # another library's CPU array, already checked
        shared = foreign.host_array(value)
        if shared is None:  # it exported its memory for the check, not now
            raise ArgumentError(f"a {type(value).__name__} passed the argument checks but no "
                                "longer exports its memory; pass dev.asarray(x) instead")
        return array_address(shared)
    address = value.__dict__.get("_address")  # okl.Memory: its buffer never moves
    if address is None:
        address = value.__dict__["_address"] = array_address(value.handle)
    return address


#: (cache directory, build key) -> the loaded library's module (it never changes once
#: loaded, and one library serves every Device of the process)
_LOADED: dict[tuple[str, str], dict] = process_memo({})


def _words(compiler: str) -> list[str]:
    try:
        return shlex.split(compiler)
    except ValueError:
        return [compiler]


def _say(message: str) -> None:
    say(message)  # OKL_VERBOSE: to stderr through logging (okl/runtime/verbose.py)


def _say_command(cmd: list[str]) -> None:
    _say(shlex.join(cmd))


#: the byte alignment of every buffer a CPU Device allocates: a cache line, and one AVX-512
#: vector (OCCA's serial buffers: posix_memalign to OCCA_MEM_BYTE_ALIGN, 32 by default)
ALIGN = 64


def aligned_copy(host: np.ndarray) -> np.ndarray:
    """A C-contiguous copy of ``host`` in an :func:`aligned_empty` array."""
    out = aligned_empty(host.shape, host.dtype)
    out[...] = host
    return out


def aligned_zeros(shape, dtype) -> np.ndarray:
    """:func:`aligned_empty` filled with zeros, from numpy's zeroed allocation (calloc: pages
    the kernel zeroes when first touched, not written here)."""
    return _aligned(np.zeros, shape, dtype)


def aligned_empty(shape, dtype) -> np.ndarray:
    """An uninitialised C-contiguous array whose data starts on an :data:`ALIGN`-byte
    boundary.  numpy's own large arrays start 16 bytes past a page (glibc's mmap chunk
    header), so every 64-byte vector load of a row starting at a multiple of 16 floats
    straddles two cache lines: a GPU-style blocked sum, whose unrolled lanes issue sixteen
    such loads at once, streamed at 0.88-0.90 of the hand C's one-chain loop on the AMD EPYC
    VM, at 0.96 from an aligned buffer (the hand C's speed did not change)."""
    return _aligned(np.empty, shape, dtype)


def _aligned(make, shape, dtype) -> np.ndarray:
    shape = (int(shape),) if np.ndim(shape) == 0 else tuple(shape)
    dtype = np.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    raw = make(nbytes + ALIGN, np.uint8)
    start = -raw.ctypes.data % ALIGN
    return raw[start:start + nbytes].view(dtype).reshape(shape)

