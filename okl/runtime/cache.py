"""The two-level on-disk cache: OKL -> backend source ("translation"), source -> binary ("build").

Layout: ``<root>/v1/<level>/<key[:2]>/<key>/`` holds the entry's named files plus ``meta.json``
(the key document, the size and SHA-256 of every file, the creation time).

Design rules, each answering a failure users of peer projects have reported:

- The key is the SHA-256 of a canonical JSON document, so everything that can change the output
  (source, includes, flags, compiler identity, our version) goes into one hash; dict order
  never matters and nothing is combined by XOR.
- Writes need no lock (locks break on NFS and under MPI): every file goes to a unique temp file
  in the entry directory and is moved into place with ``os.replace``; ``meta.json`` is moved last,
  so its presence marks a complete entry. Processes that build the same key at once merely do
  redundant work.
- Reads trust nothing: every file is checked against the size and SHA-256 in ``meta.json``, so a
  torn write, a crash before data reached the disk, a truncated or edited file, or a concurrent
  writer all show up as a miss, never as wrong or partial content. That is also why no ``fsync``
  is needed.
- The cache is an optimisation and must never fail a build: any ``OSError`` or damage on read is
  a miss, and a failed write (read-only directory, disk full, quota) logs a warning and returns
  None.

Trust model: the checksums in ``meta.json`` are written by whoever wrote the entry, so they
detect damage, not tampering.  Whoever can write an entry could make okl load their code (a
shared library in serial/OpenMP mode, a binary in OpenCL mode), so (okl.runtime.cache_files)
entries are created 0700/0600 whatever the umask, and an entry is used only when its folders
below the root and its files belong to the current user (or root) and no one else can write
them; anything else is refused with a warning and built privately.  Within that model okl
still guards what it controls:

- Links are never followed below the root: an entry, a prefix or level directory, or an
  entry's file that is a symbolic link is a miss, and cleanup unlinks the link itself (through
  directory descriptors, so a directory swapped for a link meanwhile is not followed either).
  Otherwise a link planted in the cache would make cleanup delete files elsewhere.
- What is used is exactly what was verified: ``get`` reads each file once, checks it and
  returns those bytes; binaries are loaded from a private copy of them (cpu.py), never from
  the entry, which could change between the check and the load.
- ``OKL_CACHE_READONLY=1`` for shared installations (a cache prepared by an administrator):
  lookups only, never a write, a discard or a clear; builds that miss run in private
  temporary directories and stay uncached.

Sharing one build between processes (okl.mpi): ``recording()`` collects the entries a build
read or wrote through ``get`` and ``put`` -- whatever the level or backend, so a backend that
starts storing its binaries here is covered without changes -- and ``overlay(entries)`` makes
``get`` answer those entries from memory first.  N MPI ranks building one kernel then cost
one build, one broadcast and no file-system access for the cache, instead of N builders (or
N readers of one entry) on a parallel file system's metadata server.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import stat
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import platformdirs

from .. import env
from . import cache_files

log = logging.getLogger(__name__)

SCHEMA = "v1"
#: translation: backend source; build: kernel binaries; support: okl's own code built for
#: this machine (the native launch library of the CPU modes, okl.runtime.drivers.cpu_native);
#: tuning: the winners of Device.tune, per device and problem (okl.runtime.tune)
LEVELS = ("translation", "build", "support", "tuning")
META = "meta.json"

_KEY = re.compile(r"[0-9a-f]{64}")


#: in-process memos of what the cache gave (translations, loaded libraries): a new Device
#: finds a kernel again without reading the disk.  Clearing the cache clears them too.
_MEMOS: list[dict] = []


def memo(table: dict) -> dict:
    """Register ``table`` as an in-process memo of cache contents; returns it."""
    _MEMOS.append(table)
    return table


def forget_memos() -> None:
    """Forget what this process remembers of the cache, as a new process would."""
    for table in _MEMOS:
        table.clear()


#: one cache entry as ``recording`` collects it and ``overlay`` takes it: (level, key, files)
Entry = tuple[str, str, dict[str, bytes]]


class Cache:
    """One cache root. Cheap to create; holds no open files and no state besides the root
    (and, only inside ``recording`` or ``overlay`` blocks, what those collect or serve)."""

    _recorded: list[Entry] | None = None
    _overlaid: dict[tuple[str, str], dict[str, bytes]] | None = None
    _overlay_stats: dict[str, int] | None = None

    def __init__(self, root: str | os.PathLike | None = None):
        if root is None:
            root = os.environ.get("OKL_CACHE_DIR") or platformdirs.user_cache_dir("okl")
        self.root = Path(root).expanduser()

    def __repr__(self) -> str:
        return f"Cache({str(self.root)!r})"

    @property
    def base(self) -> Path:
        """Everything this schema version writes lives here; ``clear`` touches nothing else."""
        return self.root / SCHEMA

    @staticmethod
    def key(document: dict) -> str:
        """SHA-256 hex of the canonical JSON of ``document`` (raises TypeError if not JSON data).

        Unserialisable values are an error rather than being ``str()``-ed, because a repr that
        hides part of the value (or contains an address) would give wrong hits or no hits.
        """
        text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def entry_path(self, level: str, key: str) -> Path:
        """Directory of an entry (it may not exist).  Never load from it: load the bytes that
        ``get`` verified (from a private copy where a file is needed)."""
        if level not in LEVELS:
            raise ValueError(f"unknown cache level {level!r}; expected one of {LEVELS}")
        if not isinstance(key, str) or not _KEY.fullmatch(key):
            raise ValueError(f"cache key must be 64 lowercase hex digits, got {key!r}")
        return self.base / level / key[:2] / key

    # -- reading ---------------------------------------------------------------------------

    def get(self, level: str, key: str) -> dict[str, bytes] | None:
        """All files of a complete, intact entry, or None. Never raises for damage or I/O."""
        path = self.entry_path(level, key)
        if self._overlaid is not None and self._overlay_stats is not None:  # (set together)
            files = self._overlaid.get((level, key))
            self._overlay_stats["hits" if files is not None else "misses"] += 1
            if files is not None:
                log.debug("cache hit %s/%s (overlay)", level, key)
                return dict(files)
        if env.flag("OKL_NO_CACHE"):
            return None
        try:
            cache_files.check_path(self.root, path)  # no link, nothing another user could write
            raw = _read_nofollow(path / META)
        except cache_files.Untrusted as exc:
            cache_files.refused(path, exc)  # a miss, never run: the build stays private
            return None
        except OSError:
            log.debug("cache miss %s/%s", level, key)
            return None  # absent, a link, or a writer has not finished: leave it alone
        try:
            files = _verified(path, raw, key)
        except cache_files.Untrusted as exc:
            cache_files.refused(path, exc)
            return None
        except Exception as exc:  # any damage at all (bad JSON, wrong shape) is a miss
            log.info("discarding broken cache entry %s: %s", path, exc)
            self._discard(path)
            return None
        log.debug("cache hit %s/%s", level, key)
        if self._recorded is not None:
            self._recorded.append((level, key, files))
        return files

    def discard(self, level: str, key: str) -> None:
        """Remove an entry that turned out unusable (a binary that does not load), best
        effort, as a broken one is removed."""
        self._discard(self.entry_path(level, key))

    def _discard(self, path: Path) -> None:
        """Remove a broken entry, best effort. ``meta.json`` goes first so the entry stops being
        complete at once; a concurrent writer's temp files are left alone (rmdir only succeeds
        on an empty directory), so its put can still finish."""
        if env.flag("OKL_CACHE_READONLY"):
            return
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:  # gone, or a link: unlink the link itself, never what it points to
            with suppress(OSError):
                if path.is_symlink():
                    path.unlink()
            return
        try:
            with suppress(OSError):
                os.unlink(META, dir_fd=fd)
            with suppress(OSError):
                for name in os.listdir(fd):
                    if not name.startswith("."):
                        with suppress(OSError):  # a directory here is not ours: left alone
                            os.unlink(name, dir_fd=fd)
        finally:
            os.close(fd)
        with suppress(OSError):
            path.rmdir()

    # -- writing ---------------------------------------------------------------------------

    def put(self, level: str, key: str, files: dict[str, bytes], document: dict) -> Path | None:
        """Store ``files`` under ``key``; return the entry directory, or None if nothing was
        written (cache disabled or read-only, or the write failed, which is logged)."""
        path = self.entry_path(level, key)
        for name, data in files.items():
            _check_name(name)
            if not isinstance(data, (bytes, bytearray, memoryview)):
                raise TypeError(f"cache file {name!r} must be bytes, got {type(data).__name__}")
        files = {name: bytes(data) for name, data in files.items()}  # len() is then the size
        if self._recorded is not None:  # what was built, even where it cannot be written
            self._recorded.append((level, key, files))
        if self._overlay_stats is not None:
            self._overlay_stats["puts"] += 1
        if env.flag("OKL_NO_CACHE") or env.flag("OKL_CACHE_READONLY"):
            return None
        meta = {
            "schema": SCHEMA,
            "level": level,
            "key": key,
            "created": time.time(),
            "document": document,
            "files": {name: {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
                      for name, data in files.items()},
        }
        meta_bytes = json.dumps(meta, indent=1, sort_keys=True, ensure_ascii=False).encode()
        try:
            cache_files.private_dirs(self.root, path)  # 0700, ours, no links
            cache_files.sweep_entry(path)  # what writers killed mid-write left here
            if cache_files.sweep_due(self.base):
                cache_files.sweep(self.base, LEVELS)
            for name, data in files.items():
                _write_atomic(path / name, data)
            _write_atomic(path / META, meta_bytes)
        except cache_files.Untrusted as exc:
            cache_files.unwritable(path, exc)
            return None
        except OSError as exc:
            log.warning("could not write cache entry %s (carrying on without it): %s", path, exc)
            return None
        log.debug("cache put %s/%s (%d files)", level, key, len(files))
        return path

    # -- sharing a build between processes (okl.mpi) -----------------------------------------

    @contextmanager
    def recording(self) -> Iterator[list[Entry]]:
        """Collect ``(level, key, files)`` of every entry ``get`` returns and every entry
        ``put`` is given while the block runs, in that order: everything a build used, to be
        handed to processes that will build the same thing (``overlay``).

        A put is recorded before the cache decides whether to write it, so a read-only or
        full cache directory (or ``OKL_NO_CACHE``) still yields the fresh build.  What the
        process already holds in its in-process memos is not looked up, hence not recorded.
        """
        outer, self._recorded = self._recorded, []
        try:
            yield self._recorded
        finally:
            if outer is not None:
                outer.extend(self._recorded)
            self._recorded = outer

    @contextmanager
    def overlay(self, entries: Iterable[Entry]) -> Iterator[dict[str, int]]:
        """While the block runs, ``get`` answers from ``entries`` (as ``recording`` gave
        them) before the directory is touched; the last entry of a (level, key) wins.

        Yields counters, updated as the block runs: ``hits`` (answered from memory),
        ``misses`` (fell through to the directory: this process's key differs, e.g. another
        compiler or CPU) and ``puts`` (this process built something itself).  The overlay is
        memory, not the directory, so it answers under ``OKL_NO_CACHE`` too (the entries were
        just built for this job).  The entries are trusted as given: they come from a process
        of the same job, whose cache this process would have read anyway (trust model above).
        """
        table = {(level, key): files for level, key, files in entries}
        saved = self._overlaid, self._overlay_stats
        self._overlaid = {**(saved[0] or {}), **table}
        self._overlay_stats = stats = {"hits": 0, "misses": 0, "puts": 0}
        try:
            yield stats
        finally:
            self._overlaid, self._overlay_stats = saved

    # -- maintenance -----------------------------------------------------------------------

    def info(self) -> dict:
        """``{"root": str, "levels": {level: {"entries": n, "bytes": b}}}`` for ``okl cache info``.
        Entries are counted whether complete or not; bytes include meta.json."""
        levels = {}
        for level in LEVELS:
            entries = size = 0
            for entry in _entries(self.base / level):
                entries += 1
                if entry.is_symlink():
                    continue
                with suppress(OSError):
                    for f in os.scandir(entry):
                        if f.is_file(follow_symlinks=False):
                            size += f.stat(follow_symlinks=False).st_size
            levels[level] = {"entries": entries, "bytes": size}
        return {"root": str(self.root), "levels": levels}

    def clear(self) -> int:
        """Remove every entry under ``<root>/v1`` and return how many were removed.

        Symbolic links are unlinked, never followed, so nothing outside the root is touched.
        Honours ``OKL_CACHE_READONLY`` (a shared cache must not be emptied by one user).
        """
        if env.flag("OKL_CACHE_READONLY"):
            log.warning("OKL_CACHE_READONLY is set; not clearing %s", self.base)
            return 0
        forget_memos()
        removed = 0
        for level in LEVELS:
            for entry in _entries(self.base / level):
                try:
                    if entry.is_dir() and not entry.is_symlink():
                        shutil.rmtree(entry)
                    else:
                        entry.unlink()
                    removed += 1
                except OSError as exc:
                    log.warning("could not remove cache entry %s: %s", entry, exc)
            with suppress(OSError):
                for prefix in os.scandir(self.base / level):
                    with suppress(OSError):
                        os.rmdir(prefix.path)  # only empty prefix directories
        return removed

    def sweep(self) -> int:
        """Remove the temporary files that writers killed mid-write left behind (those idle
        for minutes whose writer is gone: okl.runtime.cache_files) and return how many.
        Writes do this by themselves, for their entry and at most hourly for the whole
        cache; ``clear`` removes them with everything else.  Never under
        ``OKL_CACHE_READONLY``."""
        if env.flag("OKL_CACHE_READONLY"):
            return 0
        return cache_files.sweep(self.base, LEVELS)


def _entries(level_dir: Path):
    """Entry directories ``<level>/<xx>/<key>`` (and stray links there), not following links
    above the entry itself."""
    try:
        prefixes = [p for p in os.scandir(level_dir) if p.is_dir(follow_symlinks=False)]
    except OSError:
        return
    for prefix in prefixes:
        try:
            names = [e.name for e in os.scandir(prefix.path)]
        except OSError:
            continue
        for name in names:
            yield Path(prefix.path) / name


def _verified(path: Path, raw: bytes, key: str) -> dict[str, bytes]:
    """The entry's files, each checked against meta.json; raises on any damage."""
    meta = json.loads(raw)
    if meta["key"] != key:
        raise ValueError(f"meta.json belongs to key {meta['key']!r}")
    files = {}
    for name, expect in meta["files"].items():
        _check_name(name)
        data = _read_nofollow(path / name)
        if len(data) != expect["size"]:
            raise ValueError(f"{name}: {len(data)} bytes, expected {expect['size']}")
        if hashlib.sha256(data).hexdigest() != expect["sha256"]:
            raise ValueError(f"{name}: checksum mismatch")
        files[name] = data
    return files


def _read_nofollow(path: Path) -> bytes:
    """The bytes of a regular file; OSError when it is a link or anything else."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_BINARY", 0))
    with open(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"{path} is not a regular file")
        cache_files.check_file(path, st)  # what is read is what was judged
        return f.read()


def _check_name(name: str) -> None:
    """Entry files are plain names; leading dots are reserved for temp files."""
    if (not isinstance(name, str) or not name or name.startswith(".") or name == META
            or "/" in name or "\\" in name or "\0" in name):
        raise ValueError(f"invalid cache file name {name!r}")


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to a unique temp file beside ``path`` and move it into place, so readers
    see the old file or the new one, never a mix.  Mode 0600 whatever the umask (the file may
    be code okl runs); the temp file's name says which process wrote it when, so one left by
    a killed writer is recognised and removed (okl.runtime.cache_files)."""
    tmp = path.with_name(cache_files.temp_name(path.name))
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)  # a umask can only remove bits; exactly 0600 still
        with open(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise
