"""okl under MPI (mpi4py): one build per job, one device per rank, and communication of
device memory between ranks.

The parts: this module (collective builds, ``local_rank``, ``threads_per_rank``),
okl/mpi/launcher.py (``check_launcher``: a launcher that does not match mpi4py's library is
an error), okl/mpi/communicator.py (``Communicator``: all-reduces and halo exchanges of
okl.Memory through NCCL, a GPU-aware MPI or host memory, chosen collectively).

Why: N ranks that call ``dev.build_kernel`` on an empty cache each run the translator and the
compiler (the cache survives concurrent builders, but cannot stop them), and on a warm cache
each rank still stats, opens and reads the same entries.  On a parallel file system those N
metadata operations on the same files, all at once, are what makes OCCA-based codes slow to
start at scale.  Here one rank builds and the others receive the result in memory::

    from mpi4py import MPI
    import okl, okl.mpi

    comm = MPI.COMM_WORLD
    dev = okl.Device("cuda", device_id=okl.mpi.local_rank(comm) % ngpus)  # one GPU per rank
    k = okl.mpi.build_kernel(comm, dev, "kernels.okl", "axpy", defines={"p_B": 256})

``ngpus`` is ``cupy.cuda.runtime.getDeviceCount()`` for cuda and hip (or set
``CUDA_VISIBLE_DEVICES`` per rank and keep ``device_id=0``); for opencl pass the platform too,
``okl.Device("opencl", platform_id=P, device_id=okl.mpi.local_rank(comm) % ndev)``, since
``device_id`` counts the devices of one platform (okl/runtime/drivers/clselect.py).

What happens in ``build_kernel(comm, dev, path, name, ...)`` (collective over ``comm``):

1. the builder -- rank 0 of the job, or of each node with ``scope="node"`` (for node-local
   cache directories) -- builds as usual (in-process memo, cache directory, compiler) while
   its Cache records every entry the build read or wrote (``Cache.recording``: level, key,
   files).  Rank 0 is the only rank that opens ``path``; with ``scope="node"`` it first
   broadcasts the text to the node builders;
2. the builder broadcasts those entries with rank 0's text and a digest of its arguments
   (one broadcast of bytes: the translation and the binary, or the build's error).  Each
   rank compares the digest with its own arguments; if they agree it builds with the entries
   overlaid on its Device's Cache (``Cache.overlay``), so its own keys are computed as usual
   and found in memory: no stat, open or read of the cache directory.  What the backend needs
   from the file system anyway stays: serial/openmp load the shared library from a private
   temporary file (cpu.py writes one under ``TMPDIR``, which is node-local on clusters;
   dlopen needs a path), and a translation hit re-reads the files the kernel
   ``#include``\\s to check they did not change (device.py);
3. one allreduce agrees on the outcome.  Every rank must pass the same file or source, name,
   defines, include_dirs and flags, to a Device of the same mode: if a rank differs,
   every rank raises RankMismatchError naming the first such rank and what differs (that
   rank builds nothing; rank 0 may have built its own version).  Else, if any rank failed,
   every rank raises the first failing rank's error (the same type and message); no rank is
   left waiting in a collective.  ``scope`` must be the same everywhere too, but is not
   checked: like the root of an MPI collective, it decides which collectives run.

The cost per call: one broadcast (sent as two: a 1 KiB header, then the rest of a larger
payload) and one allreduce (two in flight at once), plus one broadcast more with
``scope="node"`` or on an error.

A rank whose keys differ from the builder's (another compiler, CPU model under
``-march=native``, driver or okl version) does not find them in the broadcast: it falls back
to the cache directory and may compile, as without okl.mpi, and rank 0 logs how many ranks
did so.  Ranks wait for the builder by polling with sleeps rather than spinning inside MPI,
so that an oversubscribed node leaves its cores to the compiler.

OpenMP threads: ranks of one node share its cores, and libgomp starts as many threads as
the CPUs a process may run on unless ``OMP_NUM_THREADS`` says otherwise, so 8 unbound ranks
on a 64-core node would run 512 threads.  ``threads_per_rank(comm)`` is the rank's share of
the node; put it in ``OMP_NUM_THREADS`` before the first openmp kernel is built (libgomp
reads it once, when the first kernel library loads it)::

    os.environ.setdefault("OMP_NUM_THREADS", str(okl.mpi.threads_per_rank(comm)))
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import pickle
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import OKLError
from ..parser.cpp.defines import DefineError, define_texts
from ..parser.source import STRING_NAME
from .communicator import Communicator, CommunicatorError, Exchange, fold, mpi_gpu_support
from .launcher import LAUNCHER_VARIABLES, LauncherMismatchError, _mpi, check_launcher, launched_as

__all__ = ["SCOPES", "LAUNCHER_VARIABLES", "BuildReport", "Communicator", "CommunicatorError",
           "Exchange", "LauncherMismatchError", "fold", "RankMismatchError", "build_kernel",
           "build_kernel_from_string", "check_launcher", "launched_as", "local_rank",
           "mpi_gpu_support", "node_comm", "threads_per_rank"]

if TYPE_CHECKING:
    from ..runtime.device import Device, Kernel

log = logging.getLogger("okl")

SCOPES = ("job", "node")


class RankMismatchError(OKLError):
    """Ranks passed different arguments to a collective okl.mpi build."""


@dataclass(frozen=True)
class BuildReport:
    """What one rank's ``okl.mpi.build_kernel`` did (``kernel.mpi_build``).

    ``builder``: this rank built (rank 0 of the job or of its node); ``received_entries`` and
    ``received_bytes``: the cache entries the builder broadcast and the size of the broadcast
    (on the builder: what it sent); ``overlay_hits`` /
    ``overlay_misses``: lookups this rank answered from them / had to take to the cache
    directory; ``own_builds``: entries this rank built itself (0 on a rank that only
    received); ``ranks_on_their_own``: job-wide count of non-builder ranks that missed the
    broadcast or built something themselves (0 when everything worked as intended).
    """

    scope: str
    builder: bool
    received_entries: int
    received_bytes: int
    overlay_hits: int
    overlay_misses: int
    own_builds: int
    ranks_on_their_own: int


_NODE_KEYVAL: int | None = None


def node_comm(comm: Any) -> Any:
    """The ranks of ``comm`` that share this rank's node (memory), ordered as in ``comm``.

    Made once per communicator (``comm.Split_type(MPI.COMM_TYPE_SHARED)``, collective the
    first time) and kept as an MPI attribute of ``comm``, so later calls are local."""
    global _NODE_KEYVAL
    MPI = _mpi()
    check_launcher(MPI)
    if _NODE_KEYVAL is None:
        _NODE_KEYVAL = MPI.Comm.Create_keyval()
    node = comm.Get_attr(_NODE_KEYVAL)
    if node is None:
        node = comm.Split_type(MPI.COMM_TYPE_SHARED, key=comm.Get_rank())
        comm.Set_attr(_NODE_KEYVAL, node)
    return node


def local_rank(comm: Any) -> int:
    """This rank's index among the ranks of its node: the GPU to take is
    ``local_rank(comm) % ngpus``."""
    return node_comm(comm).Get_rank()


def threads_per_rank(comm: Any) -> int:
    """OpenMP threads for each rank, so that the ranks of a node share its CPUs without
    oversubscribing them (collective over ``comm``): the CPUs this process may run on
    (``os.sched_getaffinity``), divided by the ranks of its node allowed the same CPUs.
    Unbound ranks all see the whole node and divide it; ranks the launcher bound to their
    own cores keep those.  At least 1."""
    try:
        mine = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        mine = list(range(os.cpu_count() or 1))
    sharing = sum(cpus == mine for cpus in node_comm(comm).allgather(mine))
    return max(1, len(mine) // sharing)


def build_kernel(comm: Any, dev: Device, path: str | os.PathLike, name: str, *,
                 defines: dict | None = None, include_dirs=(), flags=(),
                 scope: str = "job") -> Kernel:
    """``dev.build_kernel(path, name, ...)``, collectively over ``comm``: one rank (of the
    job, or of each node with ``scope="node"``) translates and compiles, the others receive
    the result by broadcast instead of reading or writing the cache directory.  Only rank 0
    reads ``path``.  Every rank gets the kernel, or every rank raises the same error.  See
    the module's documentation for what is broadcast and what each rank still reads.

    ``scope`` must be the same on every rank, like the root of an MPI collective: it decides
    which communicators the collectives run on, so a rank that differs would wait in another
    collective than the others (the other arguments are checked)."""
    return _collective_build(comm, dev, os.fspath(path), None, name, defines, include_dirs,
                             flags, None, scope)


def build_kernel_from_string(comm: Any, dev: Device, source: str, name: str, *,
                             defines: dict | None = None, include_dirs=(), flags=(),
                             filename: str | None = None, scope: str = "job") -> Kernel:
    """``dev.build_kernel_from_string(source, ...)``, collectively over ``comm`` (as
    ``build_kernel``); every rank must pass the same ``source`` (checked by digest)."""
    return _collective_build(comm, dev, None, source, name, defines, include_dirs, flags,
                             filename, scope)


# -- the collective build ------------------------------------------------------------------


def _collective_build(comm, dev, path, source, name, defines, include_dirs, flags, filename,
                      scope) -> Kernel:
    MPI = _mpi()
    check_launcher(MPI)
    if scope not in SCOPES:
        raise ValueError(f"scope must be one of {SCOPES}, got {scope!r}")
    rank, size = comm.Get_rank(), comm.Get_size()
    defines = dict(defines or {})
    include_dirs, flags = list(include_dirs), list(flags)
    if path is not None:
        filename = path
    mine = _fields(dev, path, source, name, defines, include_dirs, flags, filename, scope)
    group = comm if scope == "job" else node_comm(comm)
    builder = group.Get_rank() == 0

    # rank 0's arguments and the text of the file, read by rank 0 alone; node builders need
    # them before they build, the job's builder is rank 0 and sends them with its result
    reference: Any = None
    unreadable: BaseException | None = None
    if rank == 0:
        reference = {"fields": mine, "source": source, "error": None}
        if path is not None:
            try:
                reference["source"] = _read(path)
            except Exception as exc:
                unreadable, reference["error"] = exc, _pack(exc)
    if scope == "node":
        reference = _bcast(MPI, comm, reference, 0)

    # the builder builds while its Cache records what the build read and wrote, unless its
    # own arguments differ from rank 0's (then nobody of its group builds: see below)
    kernel: Any = None
    error: BaseException | None = None
    payload: Any = None
    if builder:
        payload = {"reference": reference if scope == "job" else None, "built": False,
                   "entries": [], "error": None}
        if reference["error"] is None and reference["fields"] == mine:
            try:
                with dev.cache.recording() as entries:
                    kernel = _build(dev, reference["source"], name, defines, include_dirs,
                                    flags, filename)
                payload.update(built=True, entries=entries)
            except Exception as exc:
                error, payload["error"] = exc, _pack(exc)
    payload, nbytes = _bcast(MPI, group, payload, 0, with_size=True)
    if scope == "job":
        reference = payload["reference"]
    differs = sorted(k for k in set(mine) | set(reference["fields"])
                     if mine.get(k) != reference["fields"].get(k))

    # the others build with the builder's entries overlaid on their Cache
    stats = {"hits": 0, "misses": 0, "puts": 0}
    if reference["error"] is not None:
        error = unreadable or _unpack(reference["error"])
    elif not builder and not differs:
        if payload["error"] is not None:
            error = _unpack(payload["error"])
        elif payload["built"]:
            try:
                with dev.cache.overlay(payload["entries"]) as stats:
                    kernel = _build(dev, reference["source"], name, defines, include_dirs,
                                    flags, filename)
            except Exception as exc:
                error = exc
    alone = int(not builder and (stats["misses"] > 0 or stats["puts"] > 0))

    # one outcome for every rank: a mismatch, else the first failing rank's error, else
    # everyone's kernel
    mismatch, failed, on_their_own = _agree(MPI, comm, rank if differs else size,
                                            rank if error is not None else size, alone)
    if mismatch < size:
        differs = _bcast(MPI, comm, differs if rank == mismatch else None, mismatch)
        raise RankMismatchError(
            f"okl.mpi.build_kernel of '{name}': the {', '.join(differs)} of rank {mismatch} "
            f"differ from rank 0's (rank {mismatch} is the first that differs); every rank "
            "must pass the same file or source, kernel name, defines, include_dirs, flags "
            "and scope, to a Device of the same mode")
    if failed < size:
        shared = _bcast(MPI, comm, _pack(error) if rank == failed and error is not None
                        else None, failed)
        if error is not None and rank == failed:
            raise error
        raise _unpack(shared) from None
    if rank == 0 and on_their_own:
        log.warning("okl.mpi.build_kernel(%r): %d of %d ranks did not find the builder's cache "
                    "entries in the broadcast and used the cache directory (their cache keys "
                    "differ: another compiler, CPU model, driver or okl version, or the kernel "
                    "was in the builder's in-process memo already)", name, on_their_own, size)
    kernel.mpi_build = BuildReport(scope, builder, len(payload["entries"]), nbytes,
                                   stats["hits"], stats["misses"], stats["puts"], on_their_own)
    return kernel


def _build(dev, source, name, defines, include_dirs, flags, filename):
    return dev.build_kernel_from_string(source, name, defines=defines or None,
                                        include_dirs=include_dirs, flags=flags,
                                        filename=filename)


def _read(path: str) -> str:
    """The file's text as Device.build_kernel reads it (with its not-UTF-8 warning)."""
    from ..parser.source import decode, read_source

    text, not_utf8 = decode(read_source(path), path)
    if not_utf8 is not None:
        log.warning("%s", not_utf8.render())
    return text


def _fields(dev, path, source, name, defines, include_dirs, flags, filename, scope) -> dict:
    """A short digest of each argument that must agree between ranks, by name (so that an
    error can say which differs).  A path is compared as an absolute path (rank 0's file is
    used by all); a string source by its SHA-256 and the directory its #includes resolve from.
    """
    if path is not None:
        where = os.path.abspath(path)
        text = None
    else:
        where = [filename or STRING_NAME, os.getcwd()]
        text = source
    values = {
        "file": where, "source": text, "kernel name": name, "scope": scope,
        "mode": [dev.mode, bool(getattr(dev, "check_bounds", False))],
        "defines": _defines_compared(defines),
        "include_dirs": [os.path.abspath(os.fspath(d)) for d in include_dirs],
        "flags": [str(f) for f in flags],
    }
    return {k: hashlib.sha256(json.dumps(v, sort_keys=True, ensure_ascii=False)
                              .encode()).hexdigest()[:16] for k, v in values.items()}


def _defines_compared(defines: dict) -> dict:
    """The defines as the ranks compare them: their macro texts, or for a bad define (which
    the build then reports on every rank) a spelling of what was given -- never an error
    here, where one rank alone raising would leave the others waiting in a collective."""
    try:
        return define_texts(defines)
    except DefineError:
        return {repr(k): repr(v) for k, v in defines.items()}


def _pack(exc: BaseException) -> dict:
    """An exception as bytes for the other ranks: pickled when it survives a round trip (okl
    errors do, diagnostics included), else its type name and message as an OKLError."""
    try:
        blob = pickle.dumps(exc)
        pickle.loads(blob)
    except Exception:
        blob = None
    return {"pickle": blob, "text": f"{type(exc).__name__}: {exc}"}


def _unpack(packed: dict) -> BaseException:
    if packed["pickle"] is not None:
        try:
            return pickle.loads(packed["pickle"])
        except Exception:
            pass
    return OKLError(packed["text"])


# -- collectives that wait politely ----------------------------------------------------------
# A rank blocked in MPI_Bcast spins on its core (MPICH, Open MPI): while the builder compiles,
# the other ranks of an oversubscribed node would take the CPU from the compiler.  So each
# wait polls for 2 ms, yielding the core between polls (a collective whose ranks are all
# there completes within it), then sleeps for 5 % of the time waited so far (at most 2 ms):
# a long wait for a compiler costs at most ~5 % more, and the sleeping ranks leave their
# cores to it.  A broadcast first sends a small header (binomial tree, one round) and then the
# rest, so that the multi-round algorithms MPI uses for large messages run while every rank
# is awake.

_SPIN_S = 2e-3
_HEAD = 1024  # the header: the length, then the first bytes of the payload
_yield = getattr(os, "sched_yield", None) or (lambda: time.sleep(0))


def _wait(MPI, requests) -> None:
    start = time.perf_counter()
    while not MPI.Request.Testall(requests):
        waited = time.perf_counter() - start
        if waited < _SPIN_S:
            _yield()  # runs whoever else waits for this core, if anyone
        else:
            time.sleep(min(2e-3, 0.05 * waited))


def _bcast(MPI, comm, obj, root: int, with_size: bool = False):
    """``comm.bcast(obj, root)`` through nonblocking broadcasts of a pickle: a header (its
    length and first bytes), then the rest if there is more."""
    mine = comm.Get_rank() == root
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL) if mine else b""
    head = bytearray(_HEAD)
    room = _HEAD - 8
    if mine:
        head[:8] = len(data).to_bytes(8, "little")
        head[8:8 + min(len(data), room)] = data[:room]
    _wait(MPI, [comm.Ibcast([head, MPI.BYTE], root)])
    size = int.from_bytes(head[:8], "little")
    rest: bytes | bytearray = b""
    if size > room:
        rest = bytearray(data[room:]) if mine else bytearray(size - room)
        _wait(MPI, [comm.Ibcast([rest, MPI.BYTE], root)])
    out = obj if mine else pickle.loads(bytes(head[8:8 + min(size, room)]) + bytes(rest))
    return (out, size) if with_size else out


def _agree(MPI, comm, low1: int, low2: int, count: int) -> tuple[int, int, int]:
    """(minimum of ``low1``, minimum of ``low2``, sum of ``count``) over ``comm``: two
    allreduces in flight at once."""
    lows, total = np.array([low1, low2], np.int64), np.array([count], np.int64)
    out_lows: np.ndarray = np.zeros(2, np.int64)
    out_total: np.ndarray = np.zeros(1, np.int64)
    _wait(MPI, [comm.Iallreduce(lows, out_lows, MPI.MIN),
                comm.Iallreduce(total, out_total, MPI.SUM)])
    return int(out_lows[0]), int(out_lows[1]), int(out_total[0])
