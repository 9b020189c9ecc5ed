"""The caches that okl's backends keep besides okl's own (``oklc cache info|clear
--backends``).

Building a kernel fills okl's cache (okl/runtime/cache.py) and, behind it, the caches of the
libraries okl calls: CuPy's kernel cache (cuda, hip), PoCL's kernel cache and pyopencl's
compiler cache (opencl), and the NVIDIA driver's cache of PTX compiled for the GPU.  Users
who look for where disk space went, or who clear okl's cache to force a rebuild, need to see
those too.  Each is listed with the environment variable that moves it; clearing one happens
only when asked for with ``--backends``, since some are shared with the user's other
programs (CuPy's, the driver's).

Clearing deletes only what it can prove is that backend's cache, by the names and structure
the backend itself writes (:data:`LAYOUTS`), never "everything in the folder": the variable
may name any folder (``POCL_CACHE_DIR=$HOME`` by mistake, or a folder shared with other
files), and an ``rm -rf`` of whatever it names would delete the user's own files.  Whatever
does not match is left and reported, so the user sees the variable point somewhere odd.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Cleared:
    """What clearing one backend cache did: entries removed, and the names of what was in
    the folder but is not that backend's cache (left as it was)."""

    removed: int
    skipped: tuple[str, ...]


@dataclass(frozen=True)
class BackendCache:
    name: str  # "cupy", "pocl", "pyopencl", "nvidia"
    env: str  # the environment variable that moves it
    path: Path
    modes: str  # the okl modes that fill it

    def usage(self) -> tuple[int, int]:
        """(files, bytes) under the folder (0, 0 when it does not exist); links not followed."""
        files = size = 0
        for root, _, names in os.walk(self.path):
            for name in names:
                try:
                    st = os.lstat(os.path.join(root, name))
                except OSError:
                    continue
                files += 1
                size += st.st_size
        return files, size

    def clear(self) -> Cleared:
        """Remove the entries of the folder that have this backend's cache layout (the folder
        stays, and so does anything else in it, reported as skipped)."""
        try:
            entries = sorted(os.scandir(self.path), key=lambda e: e.name)
        except OSError:
            return Cleared(0, ())
        removed = 0
        skipped: list[str] = []
        # judged before anything is removed: one entry's proof may rest on another's
        plan = [(entry, LAYOUTS[self.name](entry)) for entry in entries]
        for entry, doomed in plan:
            if doomed is None:
                skipped.append(entry.name)
                continue
            for path in doomed:
                try:
                    if os.path.isdir(path) and not os.path.islink(path):
                        shutil.rmtree(path)
                    else:
                        os.unlink(path)
                    removed += 1
                except OSError:
                    continue
            if entry.is_dir(follow_symlinks=False) and doomed != [entry.path]:
                try:
                    os.rmdir(entry.path)  # a prefix folder emptied of its entries
                except OSError:
                    pass
        return Cleared(removed, tuple(skipped))


# -- what each backend writes -----------------------------------------------------------------
# Each function takes one entry of the cache folder and returns the paths to delete for it (the
# entry itself, or some entries below it), or None when the entry is not the backend's.

_HEX_DIGIT = re.compile(r"[0-9a-f]")
_NV_FILE = re.compile(r"[0-9a-f]{8,}")
#: CuPy: ``<md5 or sha1 of the source and options>[_2].cubin`` (``.hsaco`` on ROCm), and with
#: CUPY_CACHE_SAVE_CUDA_SOURCE the source beside it (``<name>.cu``)
_CUPY = re.compile(r"[0-9a-f]{32,64}(?:_\d+)?\.(?:cubin|hsaco|ptx|fatbin)(?:\.cu|\.cpp)?")
#: PoCL: ``<2 letters>/<the rest of the program's SHA-1, as letters A-P>/`` (the program
#: folder: program.bc, last_accessed, a folder per kernel), and its own temporary files
_POCL_PREFIX = re.compile(r"[A-P]{2}")
_POCL_PROGRAM = re.compile(r"[A-P]{20,}")
_POCL_TEMP = re.compile(r"tempfile_[A-Za-z0-9]{6}")
#: pyopencl: one folder per cache version and Python (``pyopencl-compiler-cache-v2-py3.11...``)
_PYOPENCL = re.compile(r"pyopencl-compiler-cache-v\d+-py[\w.]+")


def _cupy(entry: os.DirEntry) -> list[str] | None:
    return [entry.path] if entry.is_file(follow_symlinks=False) and _CUPY.fullmatch(entry.name) \
        else None


def _pocl(entry: os.DirEntry) -> list[str] | None:
    if entry.is_file(follow_symlinks=False) and _POCL_TEMP.fullmatch(entry.name):
        return [entry.path]
    if not (entry.is_dir(follow_symlinks=False) and _POCL_PREFIX.fullmatch(entry.name)):
        return None
    try:
        inside = list(os.scandir(entry.path))
    except OSError:
        return None
    programs = [e.path for e in inside
                if e.is_dir(follow_symlinks=False) and _POCL_PROGRAM.fullmatch(e.name)]
    return programs if programs and len(programs) == len(inside) else None


def _nvidia(entry: os.DirEntry) -> list[str] | None:
    """The driver's ComputeCache (as an H100's driver writes it): an ``index`` file, and
    ``<hex digit>/<hex digit>/<hex name of 8 or more digits>`` files, nothing else; proven
    only where the index is there, the index only where such a folder is."""
    folder = os.path.dirname(entry.path)
    index = os.path.join(folder, "index")
    if not os.path.isfile(index) or os.path.islink(index):
        return None
    if entry.name == "index":
        try:
            names = os.listdir(folder)
        except OSError:
            return None
        return [entry.path] if any(_nvidia_digit(os.path.join(folder, n)) for n in names) \
            else None
    return [entry.path] if _nvidia_digit(entry.path) else None


def _nvidia_digit(path: str) -> bool:
    """Whether ``path`` is one of the driver's hex-digit folders (checked all the way down)."""
    if not (_HEX_DIGIT.fullmatch(os.path.basename(path)) and os.path.isdir(path)
            and not os.path.islink(path)):
        return False
    try:
        subs = list(os.scandir(path))
        for sub in subs:
            if not (_HEX_DIGIT.fullmatch(sub.name) and sub.is_dir(follow_symlinks=False)):
                return False
            for f in os.scandir(sub.path):
                if not (_NV_FILE.fullmatch(f.name) and f.is_file(follow_symlinks=False)):
                    return False
    except OSError:
        return False
    return bool(subs)


def _pyopencl(entry: os.DirEntry) -> list[str] | None:
    return [entry.path] if entry.is_dir(follow_symlinks=False) and \
        _PYOPENCL.fullmatch(entry.name) else None


#: backend cache name -> what of its folder's entries is that backend's
LAYOUTS: dict[str, Callable[[os.DirEntry], list[str] | None]] = {
    "cupy": _cupy, "pocl": _pocl, "nvidia": _nvidia, "pyopencl": _pyopencl,
}


def _xdg_cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def pocl_cache_dir() -> Path:
    """Where PoCL keeps its compiled kernels: POCL_CACHE_DIR, else the XDG cache's
    pocl/kcache."""
    return Path(os.environ.get("POCL_CACHE_DIR") or _xdg_cache() / "pocl" / "kcache")


def backend_caches() -> list[BackendCache]:
    """Where each backend cache is now (environment variables read at the call)."""
    import platformdirs  # as pyopencl finds its cache (XDG_CACHE_HOME on Linux)

    home = Path.home()
    pyopencl = platformdirs.user_cache_dir("pyopencl", "pyopencl")
    return [
        BackendCache("cupy", "CUPY_CACHE_DIR",
                     Path(os.environ.get("CUPY_CACHE_DIR") or home / ".cupy" / "kernel_cache"),
                     "cuda, hip"),
        BackendCache("nvidia", "CUDA_CACHE_PATH",
                     Path(os.environ.get("CUDA_CACHE_PATH") or home / ".nv" / "ComputeCache"),
                     "cuda, opencl on NVIDIA"),
        BackendCache("pocl", "POCL_CACHE_DIR", pocl_cache_dir(), "opencl on PoCL"),
        BackendCache("pyopencl", "XDG_CACHE_HOME", Path(pyopencl), "opencl"),
    ]
