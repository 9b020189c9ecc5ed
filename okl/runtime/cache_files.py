"""How okl's cache makes and judges its files: private modes, ownership, temporary files.

The cache holds shared libraries and program binaries that okl loads and runs, so whoever
can write an entry can run code as the user who loads it.  Three rules follow:

- **Private by construction.**  Folders are created 0700 and files 0600 whatever the umask
  (a umask of 000 made them 0777 and 0666), the cache root included when okl creates it.
  An administrator who prepares a read-only cache for others makes it readable afterwards
  (``chmod -R a+rX``); readable is harmless, writable is not.
- **Loaded only when nobody else could have written it.**  Each folder of an entry's path
  inside the cache root, and each file read, must be owned by the current user (or by root:
  a read-only installation cache, and root can change anything anyway) and not be writable
  by group or others.  Anything else -- an entry planted in a shared 1777 folder, a file
  made group-writable -- is refused: a warning on the ``okl`` logger names the path, its
  owner and mode and what to do, and the lookup is a miss, so the kernel is built privately.
  Never run.  Files are judged by ``fstat`` of the descriptor that is read, so a file
  swapped after the check is judged as what is read.
- **No partial write left behind.**  A writer writes each file to a temporary file beside
  it, named ``.NAME.HOST.PID.TIME.RANDOM.tmp``, and renames it into place.  A writer killed
  in between leaves the temporary file; the name says whose it was, so the next write to
  that entry, a periodic sweep of the whole cache (at most once every
  :data:`SWEEP_INTERVAL` seconds, from a write) and ``oklc cache clear`` remove those older
  than :data:`STALE_SECONDS` whose writer is gone (a process of this host that no longer
  exists, or any writer after :data:`ABANDONED_SECONDS`: no write takes a day, and a pid can
  be reused or belong to another host of a shared file system).

Ownership cannot be told on Windows (ACLs, not modes): there the checks are skipped.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import secrets
import socket
import stat
import threading
import time
from contextlib import suppress
from pathlib import Path

log = logging.getLogger("okl.runtime.cache")

#: a temporary file untouched this long whose writer process is gone is removed
STALE_SECONDS = 300.0
#: a temporary file untouched this long is removed whoever wrote it
ABANDONED_SECONDS = 86400.0
#: the whole cache is swept for stale temporary files at most this often (from a write)
SWEEP_INTERVAL = 3600.0
#: the file in ``<root>/v1`` whose modification time records the last sweep
SWEEP_MARK = ".swept"

_TEMP = re.compile(r"\.(?P<name>.+)\.(?P<host>[0-9a-f]{8})\.(?P<pid>\d+)\.(?P<time>\d+)"
                   r"\.[0-9a-f]{8}\.tmp")
_OLD_TEMP = re.compile(r"\..+\.(?P<pid>\d+)\.[0-9a-f]{8}\.tmp")  # okl before this scheme

_warned: set[str] = set()
_warned_lock = threading.Lock()


class Untrusted(OSError):
    """A folder or file of the cache that someone other than the current user (or root)
    owns or could have written: ``path`` and ``reason`` say which and why."""

    def __init__(self, path: Path | str, reason: str) -> None:
        self.path, self.reason = str(path), reason
        super().__init__(f"{path} is {reason}")


def _host() -> str:
    return hashlib.sha256(socket.gethostname().encode("utf-8", "replace")).hexdigest()[:8]


_HOST = _host()


def _user(uid: int) -> str:
    try:
        import pwd

        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except (ImportError, KeyError):
        return f"uid {uid}"


def refusal(st: os.stat_result) -> str | None:
    """Why a cache folder or file with this status must not be trusted, or None when it is
    owned by the current user or root and writable by nobody else."""
    geteuid = getattr(os, "geteuid", None)
    if geteuid is None:
        return None
    mode = stat.S_IMODE(st.st_mode)
    foreign = st.st_uid not in (geteuid(), 0)
    writable = mode & 0o022
    if not foreign and not writable:
        return None
    who = "group and others" if mode & 0o022 == 0o022 else "group" if mode & 0o020 else \
        "others"
    me = "you (root)" if geteuid() == 0 else f"you ({_user(geteuid())}) or root"
    why = [f"owned by {_user(st.st_uid)}, not by {me}"] if foreign else []
    if writable:
        why.append(f"writable by {who}")
    return f"{' and '.join(why)} (mode {mode:04o})"


def check_path(root: Path, path: Path) -> None:
    """Raise :class:`Untrusted` for the first folder from ``root`` (excluded: it may be a
    shared folder) down to ``path`` that fails :func:`refusal`, OSError when one is a
    symbolic link or missing."""
    current = root
    for part in path.relative_to(root).parts:
        current = current / part
        st = os.lstat(current)
        if stat.S_ISLNK(st.st_mode):
            raise OSError(f"{current} is a symbolic link")
        reason = refusal(st)
        if reason:
            raise Untrusted(current, reason)


def check_file(path: Path, st: os.stat_result) -> None:
    """Raise :class:`Untrusted` when the open file ``path`` (``st``: its ``fstat``) fails
    :func:`refusal`."""
    reason = refusal(st)
    if reason:
        raise Untrusted(path, reason)


def _first(key: str) -> bool:
    with _warned_lock:
        if key in _warned:
            return False
        _warned.add(key)
        return True


def unwritable(entry: Path, exc: Untrusted) -> None:
    """Say, once per offending path and process, that entries cannot be stored there."""
    if _first("write " + exc.path):
        log.warning("not writing cache entry %s: %s is %s; okl will not write into a folder "
                    "another user controls, so builds under it stay uncached. Use a cache "
                    "folder of your own (OKL_CACHE_DIR).", entry, exc.path, exc.reason)


def refused(entry: Path, exc: Untrusted) -> None:
    """Say, once per offending path and process, that an entry was not used and why."""
    if not _first(exc.path):
        return
    log.warning("not loading cache entry %s: %s is %s, so another user could have put "
                "code there that okl would run as you. okl builds the kernel privately "
                "instead. Remove %s if you did not put it there (or run 'oklc cache clear'), "
                "and use a cache folder only you can write (OKL_CACHE_DIR); a cache shared "
                "read-only with OKL_CACHE_READONLY=1 must be owned by root or by you.",
                entry, exc.path, exc.reason, exc.path)


def _mkdir_private(path: Path) -> None:
    """Create one folder 0700 whatever the umask (FileExistsError when it exists)."""
    os.mkdir(path, 0o700)
    os.chmod(path, 0o700)  # the umask can only have removed bits: 0700 exactly


def make_root(root: Path) -> None:
    """Create the cache root and its missing parents 0700 (an existing root is left as it
    is: it may be a folder shared on purpose)."""
    if root.is_dir():
        return
    missing = []
    current = root
    while not current.exists() and current != current.parent:
        missing.append(current)
        current = current.parent
    for folder in reversed(missing):
        with suppress(FileExistsError):  # another process made it meanwhile
            _mkdir_private(folder)


def private_dirs(root: Path, path: Path) -> None:
    """Make ``path`` and the folders between ``root`` and it ready to write into: missing
    ones created 0700, existing ones checked (links and folders of other users raise
    OSError; one of ours that group or others could write loses those bits)."""
    make_root(root)
    current = root
    for part in path.relative_to(root).parts:
        current = current / part
        try:
            _mkdir_private(current)
            continue
        except FileExistsError:
            pass
        st = os.lstat(current)
        if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
            raise OSError(f"{current} is not a folder (a symbolic link or a file)")
        reason = refusal(st)
        if reason is None:
            continue
        if getattr(os, "geteuid", lambda: -1)() != st.st_uid:
            raise Untrusted(current, reason)
        os.chmod(current, stat.S_IMODE(st.st_mode) & ~0o022)  # a folder: lstat said so


# -- temporary files ---------------------------------------------------------------------

def temp_name(name: str) -> str:
    """The temporary file a writer of ``name`` uses: host, pid and time tell a later
    process whether its writer can still be running."""
    return f".{name}.{_HOST}.{os.getpid()}.{int(time.time())}.{secrets.token_hex(4)}.tmp"


def _running(pid: int) -> bool:
    if pid == os.getpid() or os.name == "nt":  # os.kill(pid, 0) is not a probe on Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process (EPERM): it exists
        return True
    return True


def stale(name: str, st: os.stat_result, now: float) -> bool:
    """Whether ``name`` (with status ``st``) is a temporary file whose writer is gone."""
    if not name.endswith(".tmp") or not name.startswith("."):
        return False
    idle = now - st.st_mtime
    if idle >= ABANDONED_SECONDS:
        return True
    if idle < STALE_SECONDS:
        return False
    m = _TEMP.fullmatch(name)
    if m is not None:
        return m["host"] == _HOST and not _running(int(m["pid"]))
    m = _OLD_TEMP.fullmatch(name)
    return m is not None and not _running(int(m["pid"]))


def sweep_entry(entry: Path, now: float | None = None) -> int:
    """Remove the stale temporary files of one entry folder; returns how many.  Through a
    descriptor of the folder (no link followed), only in a folder of the current user."""
    now = time.time() if now is None else now
    try:
        fd = os.open(entry, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except (OSError, AttributeError):  # gone, a link, or no O_DIRECTORY (Windows)
        return 0
    removed = 0
    try:
        if refusal(os.fstat(fd)):
            return 0  # not ours to tidy
        for name in os.listdir(fd):
            with suppress(OSError):
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
                if stat.S_ISREG(st.st_mode) and stale(name, st, now):
                    os.unlink(name, dir_fd=fd)
                    removed += 1
    finally:
        os.close(fd)
    return removed


def sweep(base: Path, levels: tuple[str, ...], now: float | None = None) -> int:
    """Remove stale temporary files from every entry under ``base`` (``<root>/v1``), and an
    entry folder left empty by that (a writer killed before its first rename); returns the
    files removed."""
    removed = 0
    for level in levels:
        try:
            prefixes = [p.path for p in os.scandir(base / level)
                        if p.is_dir(follow_symlinks=False)]
        except OSError:
            continue
        for prefix in prefixes:
            with suppress(OSError):
                for entry in os.scandir(prefix):
                    if entry.is_dir(follow_symlinks=False):
                        count = sweep_entry(Path(entry.path), now)
                        removed += count
                        if count:
                            with suppress(OSError):
                                os.rmdir(entry.path)  # only when nothing else is in it
    return removed


def sweep_due(base: Path, now: float | None = None) -> bool:
    """Whether the periodic sweep of ``base`` is due; if so, marks it done now (so that of
    many processes writing at once, about one sweeps)."""
    now = time.time() if now is None else now
    mark = base / SWEEP_MARK
    try:
        if now - os.lstat(mark).st_mtime < SWEEP_INTERVAL:
            return False
    except FileNotFoundError:
        pass
    except OSError:
        return False
    try:
        fd = os.open(mark, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        os.close(fd)
        os.utime(mark, (now, now), follow_symlinks=False)
    except (OSError, NotImplementedError):
        return False
    return True
