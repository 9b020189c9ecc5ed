"""okl.Device: a place kernels run (a mode plus, for GPUs, which device), and okl.backends().

``dev = okl.Device("cuda")``; ``a = dev.asarray(x)``; ``k = dev.build_kernel("k.okl", "name")``;
``k(n, a, b)`` launches with outer/inner sizes computed from the kernel's own loops
(asynchronously on GPUs; ``dev.finish()`` waits); ``a.get()`` copies back to numpy.
Memory is okl.runtime.memory, Kernel okl.runtime.kernel; the Device picks the backend
(okl.runtime.drivers.cpu, opencl, cuda) for its mode.

Building goes through an in-process memo (repeated ``build_kernel`` calls cost microseconds),
the on-disk translation cache (OKL + included files + defines + mode + okl version -> source
and kernel specs) and the backend's binary cache.
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import modes
from ..errors import ArgumentError, BackendUnavailableError, BuildError, BundleError, OKLError
from ..modes import MODES
from ..parser.cpp.defines import define_texts
from ..parser.source import STRING_NAME
from ..version import __version__, translator_digest
from . import allocation, interop
from . import stream as streams
from .buildlog import okl_columns
from .cache import Cache
from .cache import memo as process_memo
from .kernel import Kernel
from .launch import races
from .launch.checked import requested
from .launch.spec import from_json, specs_of, to_json
from .memory import Memory
from .program import Program, missing_kernel
from .program import check_block_size as _check_block_size
from .properties import device_properties
from .verbose import SLOW_SECONDS, say, slow

log = logging.getLogger("okl")

# Hash okl's sources now, while they match the modules this process has loaded: computed at
# the first build instead, an edit in between (a development tree) would file translations
# made by the old code under the new code's key, for every process to reuse.
translator_digest()


def _say(message: str) -> None:
    say(message)  # OKL_VERBOSE: to stderr through logging (okl/runtime/verbose.py)


@dataclass
class BackendInfo:
    name: str
    available: bool
    reason: str = ""

    def __str__(self) -> str:
        return f"{self.name:8} {'yes' if self.available else 'no '}  {self.reason}"


def _backend_class(mode: str):
    """The driver of ``mode`` (okl.modes names it; imported on first use)."""
    return modes.get(mode).driver_class()


def backends() -> list[BackendInfo]:
    """One entry per mode: whether it can run here and, if not, why and how to fix it.
    Every mode translates first, so without a C preprocessor (cpp or pcpp) none can run."""
    from ..parser.cpp.pcpp import preprocessor_command

    try:
        preprocessor_command()
        no_cpp = ""
    except OKLError as e:
        no_cpp = str(e)
    out = []
    for mode in MODES:
        try:
            reason = no_cpp or _backend_class(mode).unavailable(mode)
        except Exception as e:  # an import failing inside a probe is a reason, not a crash
            reason = f"{type(e).__name__}: {e}"
        out.append(BackendInfo(mode, not reason, reason or "available"))
    return out


def normalize(mode: str) -> str:
    key = str(mode).strip().lower()
    if key == "auto":
        return key
    if key not in MODES:
        raise BackendUnavailableError(f"unknown mode '{mode}': choose one of "
                                      f"{', '.join(MODES)} or 'auto'")
    return key


def check_options(mode: str, props: dict) -> None:
    """Refuse options ``mode`` does not take (okl.modes: README, "Device options and
    environment variables"), listing those it does, so that a misspelt option is not
    silently ignored (``auto``: options of any mode are taken, each used only by the mode
    that takes it)."""
    valid = set(modes.COMMON_OPTIONS)
    for m in (MODES if mode == "auto" else (mode,)):
        valid.update(modes.get(m).options)
    unknown = sorted(set(props) - valid)
    if unknown:
        names = ", ".join(repr(u) for u in unknown)
        raise ArgumentError(f"okl.Device({mode!r}): unknown option{'s' * (len(unknown) > 1)} "
                            f"{names}; {mode} takes {', '.join(sorted(valid))}")


class Device:
    """A place kernels run: a mode plus, for GPUs, which device."""

    def __init__(self, mode: str = "auto", **props):
        """Options (unknown ones are an okl.ArgumentError): ``check_bounds=True`` (or
        OKL_CHECK_BOUNDS=1): kernels check every access through a pointer argument and raise
        okl.LaunchError naming the first one out of bounds; ``check_races=True`` (or
        OKL_CHECK_RACES=1; serial and openmp, "auto" picks serial): every launch runs under
        the race checker and raises okl.RaceError naming the first race (``"reverse"`` or
        ``"shuffle[:SEED]"`` also reorder each block's @inner iterations); ``cache_dir``: the
        on-disk cache (default OKL_CACHE_DIR or the user's cache folder); serial/openmp:
        ``compiler`` (default CC or cc), ``compiler_flags``; opencl: ``platform_id``,
        ``device_id`` (or OKL_OPENCL_DEVICE), ``context`` (a pyopencl.Context) or ``queue`` (a
        pyopencl.CommandQueue: the Device's default stream), ``compiler_flags``; cuda/hip:
        ``device_id``, ``stream`` (a cupy.cuda.Stream: the Device's default stream),
        ``compiler_flags``."""
        mode = normalize(mode)
        check_options(mode, props)
        props = dict(props)
        self.check_bounds = requested(props)
        #: the race checker's @inner order (okl.runtime.launch.races.Order), None when off
        self.check_races = races.requested(props)
        if mode == "auto" and self.check_races is not None:
            mode = "serial"
        if mode == "auto":
            for candidate in modes.AUTO_ORDER:
                if not _backend_class(candidate).unavailable(candidate):
                    mode = candidate
                    break
            log.info("okl.Device('auto') chose %s", mode)
        if self.check_races is not None and mode not in ("serial", "openmp"):
            raise ArgumentError(
                f"okl.Device({mode!r}, check_races=...): the race checker runs on serial and "
                "openmp only (it follows OKL's GPU semantics there, one thread at a time); "
                "check the kernel on okl.Device('serial', check_races=True)")
        self.mode = mode
        self.props = props
        self.backend = _backend_class(mode)(mode, props)
        self.cache = Cache(props.get("cache_dir"))
        self._memo: dict[tuple, tuple] = {}

    def __repr__(self) -> str:
        return f"okl.Device({self.mode!r}, name={self.backend.name!r})"

    @property
    def name(self) -> str:
        """The device's name as the backend reports it (a GPU's or CPU's model)."""
        return self.backend.name

    @property
    def arch(self) -> str:
        """The architecture the backend compiles for (``sm_90`` on an H100; the CPU's on
        serial and openmp): part of every binary's cache key."""
        return self.backend.arch

    # -- memory --------------------------------------------------------------------------------
    def malloc(self, count_or_shape, dtype=np.float64) -> Memory:
        """An uninitialised buffer of ``count`` elements or of a shape."""
        dtype = interop.check_dtype(np.dtype(dtype))
        shape = allocation.checked_shape(self, count_or_shape, dtype)
        return allocation.allocate(self, shape, dtype,
                                   lambda: self.backend.malloc(self, shape, dtype))

    empty = malloc

    def zeros(self, count_or_shape, dtype=np.float64) -> Memory:
        """A buffer of ``count`` elements (or of a shape) set to zero."""
        dtype = np.dtype(dtype)
        shape = allocation.checked_shape(self, count_or_shape, dtype)
        return allocation.allocate(self, shape, dtype,
                                   lambda: self.backend.zeros(self, shape, dtype))

    def asarray(self, array, dtype=None, *, copy: bool | None = None) -> Memory:
        """A Memory with ``array``'s contents: numpy arrays (structured dtypes too), any
        DLPack producer (PyTorch, JAX, CuPy, numba), ``__cuda_array_interface__``, pyopencl
        arrays and buffers, nested lists.

        Memory already on this device is shared, not copied, where kernels can take it as it
        is (C-contiguous, and on CPU modes aligned and writeable): on serial and openmp a
        numpy array or any host DLPack producer; on cuda and hip a producer on the same GPU;
        on opencl a pyopencl array or Buffer of the same context.  Anything else is copied;
        a producer on another GPU is refused.  ``copy=True`` always copies; ``copy=False``
        raises where a copy is needed.  ``dtype`` converts (a copy), or says how to read an
        untyped pyopencl Buffer.  Details: okl/runtime/interop.py."""
        return interop.asarray(self, array, dtype, copy)

    @property
    def properties(self) -> dict:
        """The device as the backend reports it; keys always include name, vendor,
        memory_bytes, compute_units, max_work_group_size, shared_memory_bytes and warp_size
        (None where unknown).  See okl/runtime/properties.py."""
        props = self.__dict__.get("_properties")
        if props is None:
            props = self.__dict__["_properties"] = device_properties(self)
        return dict(props)

    def finish(self) -> None:
        """Wait for the work queued on every stream of the device."""
        self.backend.finish()
        if "_streams" in self.__dict__:
            streams.finish_all(self)

    # -- streams and events (okl/runtime/stream.py) --------------------------------------------
    def stream(self, *, priority: str = "normal"):
        """A new okl.Stream of this device; ``with s:`` makes it current for the block.
        ``priority="high"``: on cuda/hip the GPU starts its work before pending work of
        normal streams (a halo exchange that must not wait behind a large kernel); a hint
        that CPU modes and opencl accept and ignore."""
        return streams.new_stream(self, priority)

    @property
    def current_stream(self):
        """The okl.Stream launches go to now (a default one until another is made current)."""
        stream = self.__dict__.get("_stream")
        if stream is None:
            stream = streams.streams_of(self)[0]
        return stream

    def set_stream(self, stream) -> None:
        """Make ``stream`` (an okl.Stream of this device) current until set otherwise."""
        streams.set_stream(self, stream)

    def elapsed(self, start, end) -> float:
        """Seconds between two okl.Events of this device (``s.record()``); waits for both."""
        return streams.elapsed(self, start, end)

    def pinned(self, shape, dtype=np.float64) -> np.ndarray:
        """An uninitialised numpy array for fast (and truly asynchronous) copies: page-locked
        memory on cuda/hip, a mapped CL_MEM_ALLOC_HOST_PTR buffer on opencl, a plain numpy
        array on serial/openmp (okl.runtime.copies)."""
        dtype = np.dtype(dtype)
        checked = allocation.checked_shape(self, shape, dtype)
        return allocation.allocate(self, checked, dtype,
                                   lambda: self.backend.pinned(checked, dtype))

    # -- kernels -------------------------------------------------------------------------------
    def build_kernel(self, path, name: str, *, defines: dict | None = None, include_dirs=(),
                     flags=()) -> Kernel:
        """Translate the OKL file at ``path`` for this Device's mode, compile it and return
        the okl.Kernel named ``name`` (an ``@kernel`` function of the file).

        ``defines``: macros, as ``-D`` would give them (``{'p_N': 8}``); ``include_dirs``:
        folders searched by ``#include "..."`` (the file's own folder always is); ``flags``:
        extra options for the backend compiler.  Results are kept in memory and on disk, so
        a second build costs microseconds and a new process milliseconds.  Raises
        okl.TranslationError for invalid OKL, okl.BuildError when the backend compiler
        fails.  The whole file is built once (``build_program``): other kernels of it come
        from the same build."""
        source, filename = _read_okl(path)
        return self.build_kernel_from_string(source, name, defines=defines,
                                             include_dirs=include_dirs, flags=flags,
                                             filename=filename)

    def tune(self, path, kernel: str, space: dict, args, *, defines: dict | None = None,
             include_dirs=(), flags=(), rtol: float = 1e-5, atol: float = 0.0,
             repeat: int | None = None, constraint=None, force: bool = False) -> Kernel:
        """Build ``kernel`` of the OKL file at ``path`` once per point of ``space`` (a dict
        of define name -> list of values, e.g. ``{"p_B": [64, 128, 256]}``; the cartesian
        product, kept where ``constraint(point)`` is true), run each variant on its own
        copies of ``args``, check that every variant computes what the first one that ran
        computed (``rtol``/``atol``), time them with this device's events and return the
        fastest as an okl.Kernel, with ``kernel.tuning`` (okl.runtime.tune.TuneResult:
        ``best``, ``seconds``, ``table``) saying what was found.

        A variant that fails to build or launch, or whose results differ, is skipped and
        listed in the table (an okl.OKLError only when none runs).  ``defines``,
        ``include_dirs`` and ``flags`` are build_kernel's, the same for every variant;
        ``repeat``: timed launches per variant (default: as many as fit in about 1 s, at
        most 2000).
        The winner is kept in okl's cache per device, kernel, source, fixed defines, space
        and argument shapes, so the next process asking the same gets it without timing;
        ``force=True`` tunes again.  See okl/runtime/tune.py."""
        from .tune import tune

        return tune(self, path, kernel, space, args, defines=defines,
                    include_dirs=include_dirs, flags=flags, rtol=rtol, atol=atol,
                    repeat=repeat, constraint=constraint, force=force)

    def build_kernel_from_string(self, source: str, name: str, *, defines: dict | None = None,
                                 include_dirs=(), flags=(), filename: str | None = None
                                 ) -> Kernel:
        """build_kernel for OKL source held in a string; ``filename`` is the name diagnostics
        use (``<string>`` by default), and ``#include "..."`` is searched from the working
        directory."""
        return self._program(source, defines, include_dirs, flags, filename, name)[name]

    def build_program(self, path, *, defines: dict | None = None, include_dirs=(),
                      flags=()) -> Program:
        """Translate and compile every ``@kernel`` of the OKL file at ``path`` once and return
        them as an okl.Program: ``prog.name`` or ``prog["name"]`` is an okl.Kernel (as
        CuPy's ``RawModule.get_function`` and PyOpenCL's ``Program`` hand them out).
        Arguments, caching and errors as ``build_kernel``."""
        source, filename = _read_okl(path)
        return self.build_program_from_string(source, defines=defines,
                                              include_dirs=include_dirs, flags=flags,
                                              filename=filename)

    def build_program_from_string(self, source: str, *, defines: dict | None = None,
                                  include_dirs=(), flags=(), filename: str | None = None
                                  ) -> Program:
        """build_program for OKL source held in a string (``filename`` as in
        ``build_kernel_from_string``)."""
        return self._program(source, defines, include_dirs, flags, filename, None)

    def load_program(self, path) -> Program:
        """The okl.Program of a bundle written by ``oklc build ... -o FILE`` or
        ``Program.save``: loaded with no compiler and no translator (okl.runtime.bundle).
        Raises okl.BundleError saying why when the bundle does not fit this Device (another
        mode, device architecture or CPU, okl version, or a damaged file)."""
        from . import bundle

        path = os.fspath(path)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise BundleError(f"cannot read {path}: {e.strerror or e}") from None
        memo_key = ("bundle", hashlib.sha256(data).hexdigest())
        found = self._memo.get(memo_key)
        if found is not None:
            return found[0]
        start = time.perf_counter()
        specs, module, source, build = bundle.load(self, path, data)
        program = Program(self, specs, module, source, origin=path, build=build)
        program.translation_hit = program.build_hit = True
        program.build_seconds = time.perf_counter() - start
        _say(f"loaded {path} for {self.mode} in {program.build_seconds * 1e3:.1f} ms")
        self._memo[memo_key] = (program, [])
        return program

    def load_kernel(self, path, name: str | None = None) -> Kernel:
        """The okl.Kernel of a bundle (as ``load_program``): the one it holds, or ``name``
        where it holds several (an error lists them when ``name`` is missing)."""
        return self.load_program(path).only(name)

    def _program(self, source: str, defines: dict | None, include_dirs, flags,
                 filename: str | None, name: str | None) -> Program:
        """The one build path of build_kernel and build_program: the in-process memo, then
        translation (through its cache), then one backend build of the whole module.
        ``name``: the kernel the caller wants, checked before anything is compiled."""
        filename = filename or STRING_NAME
        # cpp resolves #include "x.h" from the kernel's folder (the working directory for a
        # string), so that folder is part of what the text means.
        base = os.path.dirname(os.path.abspath(filename)) if filename[:1] != "<" else \
            os.getcwd()
        defines = define_texts(defines)  # checked: a bad one is named before anything runs
        memo_key = (source, filename, base, tuple(sorted(defines.items())),
                    tuple(map(str, include_dirs)), tuple(flags))
        memo = self._memo.get(memo_key)
        # An included file edited since (its size or mtime changed) sends the call through
        # the translation cache, which compares contents.
        if memo is not None and all(_stamp(p) == st for p, st in memo[1]) and \
                (name is None or name in memo[0]):
            return memo[0]
        start = time.perf_counter()
        started = None

        def begin(code: str, kernels: list[str]) -> None:
            """A fresh translation: the compiler starts at once (unless the kernel asked
            for is not there: that error comes first)."""
            nonlocal started
            if name is None or name in kernels:
                started = self.backend.begin_build(self, code, list(flags))

        specs, code, hit, deps = self._translate(source, filename, base, defines,
                                                 include_dirs, begin)
        if name is not None:
            spec = next((s for s in specs if s.name == name), None)
            if spec is None:
                raise missing_kernel(name, [s.name for s in specs], filename)
            _check_block_size(spec, getattr(self.backend, "max_threads", None), self.name)
        translated = time.perf_counter()
        try:
            module, build_hit = self.backend.build(self, code, specs, list(flags), started)
        except BuildError as e:  # the compiler's columns are the generated code's
            e.args = (okl_columns(str(e), code, {filename: source}),)
            raise
        compiled = time.perf_counter()
        program = Program(self, specs, module, code, origin=filename, build={
            "defines": dict(defines),
            "include_dirs": [str(d) for d in include_dirs], "flags": list(flags)})
        program.translation_hit = hit
        program.build_hit = build_hit
        setup = ""
        kernel = program[name] if name is not None else None  # its launch set-up
        if started is not None:  # the binary's cache entry, written meanwhile
            started.close()
        # what build_kernel costs, the launch set-up and the cache entry included
        program.build_seconds = time.perf_counter() - start
        if kernel is not None:
            kernel.build_seconds = program.build_seconds
            setup = f", launch set-up {(time.perf_counter() - compiled) * 1e3:.1f}"
        binary = {True: "hit", False: "miss", None: "cached by the backend"}[build_hit]
        what = name if name is not None else f"{len(specs)} kernel(s) of {filename}"
        # a slow build is an INFO record even without OKL_VERBOSE (okl.runtime.verbose.slow)
        tell = slow if program.build_seconds > SLOW_SECONDS else _say
        tell(f"built {what} for {self.mode} in {program.build_seconds * 1e3:.1f} ms "
             f"(translation {'hit' if hit else 'miss'}, binary {binary}; ms: translate "
             f"{(translated - start) * 1e3:.1f}, compile and load "
             f"{(compiled - translated) * 1e3:.1f}{setup})")
        self._memo[memo_key] = (program, [(p, _stamp(p)) for p in deps])
        return program

    def _translate(self, source: str, filename: str, base: str, defines: dict, include_dirs,
                   begin: Callable[[str, list[str]], None]):
        """OKL -> (kernel specs, backend source, cache hit, included files), through the
        translation cache (and, within a process, a memo of what it gave: a new Device of
        the same mode needs no disk access and no JSON to find a translation again).
        ``begin(backend source, kernel names)`` is called as soon as a fresh translation has
        made them, before its specs and cache entry (Driver.begin_build)."""
        document: dict = {
            "okl": __version__, "translator": translator_digest(), "mode": self.mode,
            "source": source, "filename": filename, "base": base,
            "defines": dict(defines),
            "include_dirs": [os.path.abspath(d) for d in include_dirs]}
        if self.check_bounds:  # a distinct source (absent otherwise: existing keys stay)
            document["check_bounds"] = True
        if self.check_races is not None:
            document["check_races"] = True
        key = Cache.key(document)
        memo = (str(self.cache.root), key)
        known = _TRANSLATED.get(memo)  # this process translated or loaded it already
        if known is not None and all(_stamp(p) == st for p, st in known[2]):
            return known[0], known[1], True, [p for p, _ in known[2]]
        specs, code, hit, deps = self._translate_through_cache(key, document, source, filename,
                                                               defines, include_dirs, begin)
        if len(_TRANSLATED) >= 256:
            _TRANSLATED.clear()
        _TRANSLATED[memo] = (specs, code, [(p, _stamp(p)) for p in deps])
        return specs, code, hit, deps

    def _translate_through_cache(self, key: str, document: dict, source: str, filename: str,
                                 defines: dict, include_dirs,
                                 begin: Callable[[str, list[str]], None]):
        files = self.cache.get("translation", key)
        if files is not None:
            deps = _unchanged_dependencies(files)
            if deps is not None:
                try:
                    specs = from_json(json.loads(files["specs.json"]))
                    code = files["source"].decode()
                except (KeyError, ValueError, TypeError) as e:
                    _say(f"translation cache entry {key[:12]} unusable ({e}): translating")
                else:
                    _say(f"translation cache hit {key[:12]}")
                    return specs, code, True, deps
            else:
                _say(f"translation cache entry {key[:12]} is stale (an included file changed)")
        else:
            _say(f"translation cache miss {key[:12]}")
        from ..translation import translate  # here: a cache hit never imports the translator

        # The cycle collector stays off until the compiler has started: a translation runs
        # with it off, and the first collection after it walks every object the translation
        # made that is still alive (0.1-0.2 ms of a 2-9 ms translation of a benchmark
        # kernel, measured on the 2-core VM), which beside NVRTC costs a cold build nothing.
        collecting = gc.isenabled()
        gc.disable()
        try:
            translation = translate(source, self.mode, defines=defines,
                                    include_dirs=include_dirs, filename=filename,
                                    check_bounds=self.check_bounds,
                                    check_races=self.check_races is not None)
            begin(translation.source, [k.name for k in translation.kernels])
        finally:
            if collecting:
                gc.enable()
        for w in translation.diagnostics:
            log.warning("%s", w.render())
        specs = specs_of(translation)
        program = translation.program
        assert program is not None  # translate() keeps the program it translated
        deps = list(dict.fromkeys(program.expanded.dependencies))
        self.cache.put("translation", key, {
            "source": translation.source.encode(),
            "specs.json": json.dumps(to_json(specs)).encode(),
            "deps.json": json.dumps({p: _digest(p) for p in deps}).encode()}, document)
        return specs, translation.source, False, deps


#: (cache directory, translation key) -> (specs, backend source, [(included file, _stamp)]);
#: specs are read-only once made, so Devices share them
_TRANSLATED: dict[tuple[str, str], tuple] = process_memo({})


def _read_okl(path) -> tuple[str, str]:
    """(text, name) of an OKL file (a warning for text that is not UTF-8).  The parser's
    reader is imported here, so that a process that only loads bundles never imports it."""
    from ..parser.source import decode, read_source

    path = os.fspath(path)
    source, not_utf8 = decode(read_source(path), path)
    if not_utf8 is not None:
        log.warning("%s", not_utf8.render())
    return source, path


def _digest(path: str) -> str:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return ""


def _unchanged_dependencies(files: dict[str, bytes]) -> list[str] | None:
    """The included files a cached translation read, or None if any of them changed."""
    try:
        deps = json.loads(files["deps.json"])
        if not all(_digest(p) == h for p, h in deps.items()):
            return None
    except (KeyError, ValueError, TypeError, AttributeError):
        return None
    return list(deps)


def _stamp(path: str):
    """A cheap change detector for the in-process memo (contents are compared on disk)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino
