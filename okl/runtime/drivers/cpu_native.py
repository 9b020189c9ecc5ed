"""The native launch path of the CPU modes: a kernel call that checks its arguments in C.

A CPU launch is a call into the kernel's library. The Python fast path
(okl.runtime.launch.gpu.compile_caller) checks every argument, packs a ctypes buffer and
calls the entry through ctypes: about twice what a bare ctypes call of a hand-written C
function costs (serial launch 0.53 of the hand C call), most of it Python byte code. Here
one small C library (``cpu_native.c``, built once per Python and compiler into okl's cache,
nothing in it per kernel) gives each kernel a callable that does the common case in C --
Python ints and floats in range, numpy scalars and arrays of exactly the parameter's dtype,
contiguous and writable where written -- and hands any other call to the Python fast path
unchanged, so that every argument okl accepts is still accepted and every error is still
okl's message. Checks that depend on the scalar values (launch limits, the static bounds
check) run in that Python path; the bytes they require of each array are then remembered for
those values, so a launch loop with the same sizes stays in C.

Where the library cannot be built (no Python headers, no compiler) or a kernel has a
parameter it does not know (structs, vector types), the Python fast path serves, as before:
``OKL_NATIVE_CALL=0`` asks for that everywhere.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shlex
import shutil
import sys
import sysconfig
import tempfile
import threading
from importlib import resources

import numpy as np

from ... import env
from ...version import __version__
from ..cache import Cache
from ..launch.args import vector_component
from ..verbose import say
from .cpu_interrupt import Trap, main_thread_ident, trap_wanted
from .toolrun import run_tool

SOURCE = "cpu_native.c"
#: the dtype kinds the C side converts, by (kind, itemsize) of the parameter's dtype
_KINDS = {("i", 1): 1, ("i", 2): 2, ("i", 4): 3, ("i", 8): 4, ("u", 1): 5, ("u", 2): 6,
          ("u", 4): 7, ("u", 8): 8, ("f", 4): 9, ("f", 8): 10}
_POINTER = 0
_MAX_PARAMS = 64

_lock = threading.Lock()
#: compiler -> the loaded library's ``okl_caller_new``, or None where it cannot be had
_made: dict[str, object] = {}


def enabled() -> bool:
    return env.flag("OKL_NATIVE_CALL", default=True)


def native_caller(kernel, entry, fallback, bounds, limits: bool,
                  compiler: str, cache: Cache, trap: Trap | None = None):
    """The native callable for ``kernel`` (its spec's parameters, as the fast path takes
    them), calling ``entry`` (the ctypes function of its ``void entry(void **)``) and handing
    other calls to ``fallback``; None where the native path cannot serve this kernel.
    ``bounds``: the kernel's okl.runtime.launch.bounds_check check, or None; ``limits``: the
    kernel has launch-limit checks; ``trap``: the library's Ctrl-C flag and handler
    (cpu_interrupt), installed around launches from the main thread as the Python path
    does."""
    if not enabled():
        return None
    params = kernel.spec.params
    if len(params) > _MAX_PARAMS:
        return None
    table = []
    for p in params:
        dt = p.dtype
        if p.is_pointer:
            if dt is None:
                return None
            # a vector type's pointer: arrays of its component's dtype, what numpy code passes
            # for double4 rows (the vector dtype's own arrays take the Python path)
            fast = vector_component(dt) or dt
            table.append((_POINTER, int(not p.is_const), fast.itemsize, fast))
        else:
            kind = _KINDS.get((dt.kind, dt.itemsize)) if dt is not None and \
                dt.fields is None and dt.byteorder in "=|" else None
            if kind is None:
                return None
            # numpy's scalar type of the dtype: such a scalar is read in C (np.float64(dt))
            table.append((kind, 0, dt.itemsize, dt.type))
    make = _library(compiler, cache)
    if make is None:
        return None
    needs = None if bounds is None and not limits else _needs(kernel, bounds)
    address = ctypes.cast(entry, ctypes.c_void_p).value
    try:
        return make((address, fallback, needs, np.ndarray, tuple(table),
                     0 if trap is None else trap.flag_address,
                     0 if trap is None else trap.handler, main_thread_ident(), trap_wanted))
    except Exception as e:  # never worse than the Python path
        say(f"native launch path unavailable for {kernel.name} ({type(e).__name__}: {e})")
        return None


def _needs(kernel, bounds):
    """``needs(*args)``: per parameter, the bytes the bounds check requires of the array
    passed for these scalar values (0: none), after a launch with them passed every check."""
    params = kernel.spec.params
    n = len(params)
    if bounds is None:
        zeros = (0,) * n
        return lambda *args: zeros
    scalars = [(i, p.name) for i, p in enumerate(params) if not p.is_pointer]
    names, pointers, table = bounds.key_names, bounds.pointers, bounds.needs

    def needs(*args):
        env = {name: args[i] for i, name in scalars}
        key = tuple([env[name] for name in names])
        need = table.get(key)
        if need is None:
            bounds(env, args)  # passed in the launch just made: fills the table
            need = table.get(key)
            if need is None:
                return None
        out = [0] * n
        for p, b in zip(pointers, need, strict=True):
            out[p] = b
        return tuple(out)
    return needs


def _library(compiler: str, cache: Cache):
    with _lock:
        if compiler in _made:
            return _made[compiler]
        try:
            make = _load(compiler, cache)
        except Exception as e:  # no headers, no compiler, a library that will not load
            say(f"native launch path unavailable ({type(e).__name__}: {e}); "
                "launching through the Python path")
            make = None
        _made[compiler] = make
        return make


def _load(compiler: str, cache: Cache):
    if sys.implementation.name != "cpython":  # the C side reads CPython's and numpy's structs
        raise RuntimeError(f"not CPython ({sys.implementation.name})")
    include = sysconfig.get_paths().get("include") or ""
    if not os.path.exists(os.path.join(include, "Python.h")):
        raise FileNotFoundError(f"no Python.h in {include!r}")
    source = resources.files(__package__).joinpath(SOURCE).read_bytes()
    words = shlex.split(compiler) or ["cc"]
    path = shutil.which(words[0])
    if path is None:
        raise FileNotFoundError(f"no compiler {words[0]!r}")
    document = {"okl": __version__, "native_call": hashlib.sha256(source).hexdigest(),
                "python": sys.version, "abi": sysconfig.get_config_var("SOABI") or "",
                "include": include, "compiler": [os.path.realpath(path), *words[1:]],
                "machine": sysconfig.get_platform()}
    key = Cache.key(document)
    files = cache.get("support", key)
    with tempfile.TemporaryDirectory(prefix="okl-native-") as tmp:
        lib = os.path.join(tmp, "okl_native.so")
        if files is not None and "okl_native.so" in files:
            with open(lib, "wb") as f:
                f.write(files["okl_native.so"])
        else:
            src = os.path.join(tmp, SOURCE)
            with open(src, "wb") as f:
                f.write(source)
            cmd = [path, *words[1:], "-O2", "-fPIC", "-shared", f"-I{include}", SOURCE, "-o",
                   "okl_native.so"]
            r = run_tool(cmd, cwd=tmp, timeout=120)  # its process group stopped on Ctrl-C
            if r.returncode != 0:
                raise RuntimeError(f"{shlex.join(cmd)} failed: {r.stderr.strip()[:2000]}")
            with open(lib, "rb") as f:
                built = f.read()
            cache.put("support", key, {"okl_native.so": built}, document)
        handle = ctypes.PyDLL(lib)  # mapped now: the directory may go
    make = handle.okl_caller_new
    make.argtypes = [ctypes.py_object]
    make.restype = ctypes.py_object
    make._okl_library = handle  # type: ignore[attr-defined]  # keeps it loaded
    return make
