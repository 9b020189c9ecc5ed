"""The caches that okl's backends keep besides okl's own (``oklc cache info|clear
--backends``).

Building a kernel fills okl's cache (okl/runtime/cache.py) and, behind it, the caches of the
libraries okl calls: CuPy's kernel cache (cuda, hip), PoCL's kernel cache and pyopencl's
compiler cache (opencl), and the NVIDIA driver's cache of PTX compiled for the GPU.  Users
who look for where disk space went, or who clear okl's cache to force a rebuild, need to see
those too.  Each is listed with the environment variable that moves it; clearing one removes
the folder's contents, never anything outside it, and only when asked for by name or with
``--backends``, since some are shared with the user's other programs (CuPy's, the driver's).
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path


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

    def clear(self) -> int:
        """Remove everything inside the folder (which stays); returns the entries removed."""
        removed = 0
        try:
            entries = list(os.scandir(self.path))
        except OSError:
            return 0
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path)
                else:
                    os.unlink(entry.path)
                removed += 1
            except OSError:
                continue
        return removed


def _xdg_cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


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
        BackendCache("pocl", "POCL_CACHE_DIR",
                     Path(os.environ.get("POCL_CACHE_DIR") or _xdg_cache() / "pocl" / "kcache"),
                     "opencl on PoCL"),
        BackendCache("pyopencl", "XDG_CACHE_HOME", Path(pyopencl), "opencl"),
    ]
