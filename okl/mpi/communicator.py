"""okl.mpi.Communicator: all-reduces and neighbour exchanges of okl.Memory between MPI ranks,
on the device where the machine allows it.

Why: a distributed solver spends its communication in two patterns -- a global sum of a few
device scalars (a dot product) and a swap of halo buffers with its neighbours -- and the fast
way to do either depends on the mode and the machine: NCCL between GPUs (the data never
leaves them, the work is queued on a stream like a kernel), a CUDA-/ROCm-aware MPI (device
pointers handed to MPI), or copies through host memory.  Applications (examples/distributed,
the benchParanumal driver) should not hand-write each path; this class picks one for the
whole job, says why, and offers one interface for all three::

    c = okl.mpi.Communicator(MPI.COMM_WORLD, dev)        # collective; c.mode, c.reason
    c.allreduce(dot, "sum", stream=s)                      # in place, on a Memory (view)
    h = c.exchange([(east, send_e), (west, send_w)],       # (peer rank, Memory view)
                   [(west, recv_w), (east, recv_e)], stream=s)
    ...                                                    # independent work meanwhile
    h.wait()                                               # received data usable on s

Modes (``mode=``; the choice is made collectively, so every rank gets the same one or every
rank gets the same CommunicatorError -- none is left waiting in a collective):

``nccl``        cuda/hip: NCCL through CuPy (``cupy.cuda.nccl``), its unique id made by rank 0
                and broadcast with mpi4py.  Everything is enqueued on the stream; no call
                blocks the host.
``mpi-device``  cuda/hip, where the MPI library says it takes device pointers (mpi4py's
                ``Query_cuda_support`` where it has one, else MPICH's
                ``MPIX_GPU_query_support`` or Open MPI's ``MPIX_Query_cuda_support`` /
                ``MPIX_Query_rocm_support``; a library that is not GPU-aware crashes on a
                device pointer rather than raising, hence the question) and a device buffer
                sent to the rank itself arrives intact.  The stream is finished before MPI
                reads a buffer.
``host``        the fallback, and every CPU mode: on serial/openmp the Memory *is* host
                memory and goes to MPI as it is (no copy); on opencl and GPUs each message
                goes through a host buffer (``dev.pinned``) with a copy either side.
``auto``        (default) nccl, else mpi-device, else host; ``reason`` says why each faster
                one was not taken.

Matching rule of ``exchange``: the i-th send to a peer (in list order) matches that peer's
i-th receive from this rank, in the same exchange call; sizes in bytes must agree (the
exchange moves bytes: any dtype).  What one rank can check alone is refused with an
okl.ArgumentError (a peer out of range, a Memory of another device or freed, a send to itself
whose size differs from its receive from itself); a size that differs from another rank's is
an MPI error (truncation) on MPI modes and undefined on NCCL, as in NCCL itself.

okl.mpi imports nothing of CuPy or mpi4py until a Communicator is made; this module sits
beside okl.mpi's builds and imports only the launcher check and the runtime's Memory/Stream.
"""

from __future__ import annotations

import atexit
import ctypes
import importlib
import numbers
import os
import weakref
from typing import Any

import numpy as np

from ..errors import ArgumentError, OKLError
from ..runtime.memory import Memory
from ..runtime.stream import Event, Stream
from .launcher import _mpi, check_launcher
from .peers import FOLD_LIMIT, LIMIT, MAX_RANKS, PeerSums

MODES = ("auto", "nccl", "mpi-device", "host")
OPS = ("sum", "max", "min")
#: dtypes an all-reduce takes: those NCCL and MPI both reduce (no float16: MPI has no type)
REDUCIBLE = tuple(np.dtype(t) for t in ("int8", "uint8", "int32", "uint32", "int64",
                                        "uint64", "float32", "float64"))
_NCCL_TYPES = {"int8": "NCCL_INT8", "uint8": "NCCL_UINT8", "int32": "NCCL_INT32",
               "uint32": "NCCL_UINT32", "int64": "NCCL_INT64", "uint64": "NCCL_UINT64",
               "float32": "NCCL_FLOAT32", "float64": "NCCL_FLOAT64"}
_NCCL_OPS = {"sum": "NCCL_SUM", "max": "NCCL_MAX", "min": "NCCL_MIN"}


#: the Communicators not closed yet, closed at exit before mpi4py finalizes MPI
_OPEN: weakref.WeakSet = weakref.WeakSet()
_AT_EXIT = False


def _close_open() -> None:
    """Close what the program left open, before MPI_Finalize (atexit runs last-registered
    first, and this is registered after mpi4py's own): an NCCL communicator destroyed after
    MPI has finalized, by the garbage collector at interpreter exit, can hang or crash."""
    for c in list(_OPEN):
        try:
            c.close()
        except Exception:  # exiting: nothing left to report to
            pass


class CommunicatorError(OKLError):
    """A Communicator cannot be made as asked (the mode is not available on every rank, the
    ranks asked for different modes), or was used after ``close()``."""


def mpi_gpu_support(gpu: str, MPI: Any = None) -> tuple[bool, str]:
    """Whether the MPI library mpi4py loaded says it takes device pointers of ``gpu``
    ("cuda" or "hip"), and how it said so.  Asked of the library itself: mpi4py's
    ``MPI.Query_cuda_support``/``Query_hip_support`` where this mpi4py has them, else the
    library's MPIX functions (MPICH's ``MPIX_GPU_query_support``, Open MPI's
    ``MPIX_Query_cuda_support``/``MPIX_Query_rocm_support``) found among the loaded
    libraries.  No answer is taken as "not GPU-aware": a library that is not crashes on a
    device pointer (seen: the PyPI mpich wheel on an H100), it does not raise."""
    MPI = MPI or _mpi()
    query = getattr(MPI, {"cuda": "Query_cuda_support", "hip": "Query_hip_support"}[gpu], None)
    if query is not None:
        try:
            said = bool(query())
            return said, f"MPI.{query.__name__}() = {said}"
        except (NotImplementedError, RuntimeError):
            pass
    libs = []
    if os.path.exists("/proc/self/maps"):  # the MPI library mpi4py loaded
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split()[-1]
                name = os.path.basename(path)
                if name.startswith("libmpi") and ".so" in name and path not in libs:
                    libs.append(path)
    for path in libs:
        lib = ctypes.CDLL(path)
        mpich = getattr(lib, "MPIX_GPU_query_support", None)
        if mpich is not None:
            flag = ctypes.c_int(0)
            code = {"cuda": 0, "hip": 2}[gpu]  # MPIX_GPU_SUPPORT_CUDA, MPIX_GPU_SUPPORT_HIP
            if mpich(code, ctypes.byref(flag)) == 0:
                return bool(flag.value), f"MPIX_GPU_query_support({gpu}) = {flag.value}"
        name = {"cuda": "MPIX_Query_cuda_support", "hip": "MPIX_Query_rocm_support"}[gpu]
        ompi = getattr(lib, name, None)
        if ompi is not None:
            value = int(ompi())
            return bool(value), f"{name}() = {value}"
    if not libs:
        return False, "no libmpi among the loaded libraries (taken as not GPU-aware)"
    return False, "the MPI library has no GPU-support query (taken as not GPU-aware)"


def fold(mem: Memory, op: str = "sum", *, stream: Stream | None = None,
         out: Memory) -> None:
    """``out[0]`` = the ``op`` of ``mem``'s values: one rank's part of
    ``Communicator.allreduce(out=)``, alone (for a run that times its work without
    communicating).  On cuda and hip queued on ``stream`` (default: the current one) by CuPy;
    elsewhere on the host, after the stream's work.  ``out``: one value of mem's dtype."""
    what = "okl.mpi.fold"
    for name, m in (("mem", mem), ("out", out)):
        if not isinstance(m, Memory) or m.freed:
            raise ArgumentError(f"{what}: {name} must be a live okl.Memory (or a view), got "
                                f"{m!r:.80}")
    if op not in OPS:
        raise ArgumentError(f"{what}: op={op!r} is not one of {', '.join(OPS)}")
    if out.device is not mem.device or (stream is not None and (
            not isinstance(stream, Stream) or stream.device is not mem.device)):
        raise ArgumentError(f"{what}: out and stream must belong to mem's device "
                            f"{mem.device!r}")
    _check_fold(mem, out, what)
    s = stream or mem.device.current_stream
    if mem.device.backend.kind in ("cuda", "hip"):  # CuPy arrays: folded on the stream
        import cupy
        reduce = {"sum": cupy.sum, "max": cupy.amax, "min": cupy.amin}[op]
        with s, mem.device.backend.cp_device:  # (the okl stream is CuPy's current one)
            reduce(mem.handle.reshape(-1), keepdims=True, out=out.handle.reshape(-1))
    else:
        values = mem.get().reshape(-1)  # (waits for the stream's writes)
        host = {"sum": np.add, "max": np.maximum, "min": np.minimum}[op]
        out.copy_from(host.reduce(values, keepdims=True))


def _check_fold(mem: Memory, out: Memory, what: str) -> None:
    if out.size != 1 or out.dtype != mem.dtype:
        raise ArgumentError(f"{what}: out= takes one value of mem's dtype ({mem.dtype}), got "
                            f"{out!r}")
    if mem.size == 0:
        raise ArgumentError(f"{what}: with out=, mem must hold at least one value (the op of "
                            "no values is undefined)")
    if (out.base or out) is (mem.base or mem) and \
            mem.offset <= out.offset < mem.offset + mem.size:
        raise ArgumentError(f"{what}: out= must not overlap mem (its values are read while "
                            "out is written); give a value of its own")


class Communicator:
    """Communication of okl.Memory between the ranks of ``comm`` (an mpi4py communicator),
    one ``dev`` (okl.Device) per rank.  Collective: every rank of ``comm`` makes one, with the
    same ``mode``, and in the same order as its other collectives.  See the module's
    documentation for the modes.

    Attributes: ``mode`` (the one chosen), ``reason`` (why, for reports), ``rank``,
    ``size``, ``comm`` (the communicator given; messages go on a duplicate of it, so they
    never match the application's own)."""

    def __init__(self, comm: Any, dev: Any, *, mode: str = "auto"):
        if mode not in MODES:
            raise ArgumentError(f"okl.mpi.Communicator: mode={mode!r} is not one of "
                                f"{', '.join(MODES)}")
        backend = getattr(dev, "backend", None)
        if backend is None or not hasattr(dev, "malloc"):
            raise ArgumentError(f"okl.mpi.Communicator: dev must be an okl.Device, got "
                                f"{type(dev).__name__}")
        if not all(hasattr(comm, a) for a in ("Get_rank", "Get_size", "Dup")):
            raise ArgumentError(f"okl.mpi.Communicator: comm must be an mpi4py communicator "
                                f"(MPI.COMM_WORLD, a Split or Create_cart of it), got "
                                f"{type(comm).__name__}")
        MPI = self._MPI = _mpi()
        check_launcher(MPI)
        self.comm = comm
        self.dev = dev
        self.rank, self.size = comm.Get_rank(), comm.Get_size()
        self._kind = backend.kind  # host, opencl, cuda (hip mode runs through CuPy too)
        self._nccl: Any = None  # the NcclCommunicator, in nccl mode
        self._nccl_module: Any = None
        self._peers: PeerSums | None = None  # cuda, one host: small all-reduces (peers.py)
        self._pool: dict[tuple, list] = {}  # host staging buffers: (nbytes,) -> [(array, event)]
        # nccl: what has run once outside a graph capture -- ("send"|"recv", peer) and
        # ("allreduce", -1) -- and so may be captured (see _capturable)
        self._connected: set[tuple[str, int]] = set()
        # the okl.Graphs that captured a call of this communicator: close() releases them
        self._graphs: weakref.WeakSet = weakref.WeakSet()
        self._closed = False
        self._mine = comm.Dup()
        try:
            self.mode, self.reason = self._choose(mode)
        except BaseException:
            self._mine.Free()
            raise
        global _AT_EXIT
        if not _AT_EXIT:
            atexit.register(_close_open)
            _AT_EXIT = True
        _OPEN.add(self)

    def __repr__(self) -> str:
        state = ", closed" if self._closed else ""
        return (f"okl.mpi.Communicator(rank {self.rank} of {self.size}, mode "
                f"{getattr(self, 'mode', '?')!r}, {self.dev!r}{state})")

    # -- choosing the mode, collectively -------------------------------------------------------
    def _first(self, bad: bool, why: str) -> tuple[int, str]:
        """(the lowest rank for which ``bad`` holds, its ``why``), or (size, "") if none:
        every rank gets the same answer (one allreduce; one broadcast when some rank is bad)."""
        MPI, comm = self._MPI, self._mine
        first = comm.allreduce(self.rank if bad else self.size, op=MPI.MIN)
        if first == self.size:
            return first, ""
        return first, comm.bcast(why if self.rank == first else None, root=first)

    def _choose(self, wanted: str) -> tuple[str, str]:
        comm = self._mine
        mine = (wanted, self._kind)
        facts = comm.allgather(mine)
        for r, fact in enumerate(facts):
            if fact != facts[0]:
                raise CommunicatorError(
                    f"okl.mpi.Communicator: rank {r} asked for mode {fact[0]!r} on a "
                    f"{fact[1]} device, rank 0 for {facts[0][0]!r} on a {facts[0][1]} device: "
                    "every rank must ask for the same mode, with a device of the same kind")
        gpu = self._kind == "cuda"
        if wanted == "host":
            peers = "; " + self._try_peers() if gpu else ""
            return "host", "mode='host' asked for" + self._host_how() + peers
        if not gpu and wanted in ("nccl", "mpi-device"):
            raise CommunicatorError(
                f"okl.mpi.Communicator: mode={wanted!r} needs a cuda or hip device, this is "
                f"{self.dev.mode!r}; use mode='host' (or 'auto'), which hands host memory to "
                "MPI directly on serial and openmp")
        refusals = []
        for mode, attempt in (("nccl", self._try_nccl), ("mpi-device", self._try_mpi_device)):
            if not gpu or wanted not in ("auto", mode):
                continue
            ok, why = attempt()
            if ok:
                return mode, why + "; " + self._try_peers()
            if wanted == mode:
                raise CommunicatorError(f"okl.mpi.Communicator: mode={mode!r} is not "
                                        f"available: {why}")
            refusals.append(f"not {mode}: {why}")
        if not gpu:
            refusals.append("serial/openmp memory is host memory" if self._kind == "host" else
                            "OpenCL buffers have no device path to MPI")
            return "host", "; ".join(refusals) + self._host_how()
        return "host", "; ".join(refusals) + self._host_how() + "; " + self._try_peers()

    def _host_how(self) -> str:
        return (" (host memory to MPI directly, no copy)" if self._kind == "host" else
                " (staged through page-locked host buffers)" if self._kind == "cuda" else
                " (staged through host buffers)")

    def _try_nccl(self) -> tuple[bool, str]:
        """Make the NCCL communicator on every rank, or on none.  Each step that can fail on
        one rank alone (CuPy's NCCL missing, no unique id) is agreed on before the next
        collective; ncclCommInitRank itself is collective and cannot be agreed on before,
        so a rank whose init fails late leaves the others waiting in NCCL (NCCL's own
        limitation; the usual failures -- no NCCL in CuPy, a device error -- come earlier).
        The communicator is then checked with an all-reduce of ones (the sum must be the
        number of ranks) before it is used."""
        nccl: Any = None
        uid: Any = None
        why = ""
        try:
            nccl = importlib.import_module("cupy.cuda.nccl")
            if not getattr(nccl, "available", True):
                raise ImportError("CuPy found no NCCL library")
        except Exception as e:
            why = f"cupy.cuda.nccl cannot be imported ({type(e).__name__}: {e})"
            nccl = None
        if self.rank == 0 and nccl is not None:
            try:
                uid = nccl.get_unique_id()
            except Exception as e:
                why = f"nccl.get_unique_id() failed ({type(e).__name__}: {e})"
        uid = self._mine.bcast(uid, root=0)
        if uid is None and not why:
            why = "rank 0 made no NCCL unique id"
        first, text = self._first(nccl is None or uid is None, why)
        if first < self.size:
            return False, f"rank {first}: {text}"
        made = None
        try:
            import cupy
            with self.dev.backend.cp_device:
                made = nccl.NcclCommunicator(self.size, uid, self.rank)
                ones = cupy.ones(1, np.int64)
                stream = cupy.cuda.get_current_stream()
                made.allReduce(ones.data.ptr, ones.data.ptr, 1, nccl.NCCL_INT64,
                               nccl.NCCL_SUM, stream.ptr)
                stream.synchronize()
                got = int(ones.get()[0])
            why = "" if got == self.size else \
                f"a test all-reduce of ones gave {got}, not {self.size}"
        except Exception as e:
            why = f"NCCL communicator: {type(e).__name__}: {e}"
        first, text = self._first(bool(why), why)
        if first < self.size:
            if made is not None:
                made.abort()
            return False, f"rank {first}: {text}"
        self._nccl, self._nccl_module = made, nccl
        version = getattr(nccl, "get_version", lambda: "?")()
        return True, (f"NCCL {version} through CuPy: device buffers, queued on the stream "
                      "(no host wait)")

    def _try_peers(self) -> str:
        """Set up okl.mpi.peers' boxes on every rank, or on none (each step agreed on before
        the next collective one), and say what small all-reduces go through."""
        import cupy
        MPI, comm = self._MPI, self._mine
        why = ""
        if getattr(cupy.cuda.runtime, "is_hip", False):
            why = "HIP (the peer kernels are CUDA's)"
        elif self.size > MAX_RANKS:
            why = f"more than {MAX_RANKS} ranks"
        node = comm.Split_type(MPI.COMM_TYPE_SHARED)
        if node.Get_size() != self.size and not why:
            why = "the ranks are on several hosts"
        node.Free()
        wish = os.environ.get("OKL_MPI_PEERS", "")
        if wish == "0":
            why = why or "OKL_MPI_PEERS=0"
        gpus = comm.allgather(None if why else self.dev.backend.cp_device.pci_bus_id)
        if not why and len(set(gpus)) < self.size and wish != "1":
            why = ("ranks share a GPU: their kernels take turns on it, and one that waits for "
                   "another rank's would wait for its turn (OKL_MPI_PEERS=1 uses it anyway)")
        peers = PeerSums(cupy, self.dev, self.rank, self.size)
        handle = b""
        if not why:
            try:
                handle = peers.allocate()
                peers.kernel("float64", "sum")
            except Exception as e:
                why = f"{type(e).__name__}: {e}"
        first, text = self._first(bool(why), why)
        if first == self.size:
            try:
                peers.open(comm.allgather(handle))
            except Exception as e:
                why = f"cudaIpcOpenMemHandle: {type(e).__name__}: {e}"
            first, text = self._first(bool(why), why)
        if first == self.size:
            try:
                why = peers.test()
            except Exception as e:
                why = f"{type(e).__name__}: {e}"
            first, text = self._first(bool(why), why)
        if first == self.size:
            self._peers = peers
            return (f"all-reduces of up to {LIMIT} values by a kernel through the other GPUs' "
                    "memory (CUDA IPC; every rank adds in rank order, queued on the stream)")
        peers.unmap()
        comm.Barrier()
        peers.free()
        where = f"rank {first}: " if self.size > 1 else ""
        return f"small all-reduces not through peer memory ({where}{text})"

    def _try_mpi_device(self) -> tuple[bool, str]:
        """Whether every rank's MPI library takes device pointers: asked of the library, then
        a device buffer sent to the rank itself (COMM_SELF) and checked."""
        MPI = self._MPI
        import cupy
        gpu = "hip" if getattr(cupy.cuda.runtime, "is_hip", False) else "cuda"
        aware, why = mpi_gpu_support(gpu, MPI)
        if aware:
            expected = np.arange(1.0, 9.0)
            src = self.dev.asarray(expected)
            dst = self.dev.zeros(expected.size, np.float64)
            try:
                self.dev.finish()
                MPI.COMM_SELF.Sendrecv([src.handle[2:6], MPI.DOUBLE], dest=0, sendtag=7,
                                       recvbuf=[dst.handle[1:5], MPI.DOUBLE], source=0,
                                       recvtag=7)
                got = dst.get()
                want = np.zeros_like(expected)
                want[1:5] = expected[2:6]
                if not np.array_equal(got, want):
                    aware, why = False, f"a device-buffer Sendrecv delivered {got}, not {want}"
                else:
                    why += "; a device-buffer Sendrecv to itself arrived intact"
            except Exception as e:
                aware, why = False, f"MPI refused a device buffer: {type(e).__name__}: {e}"
            src.free()
            dst.free()
        first, text = self._first(not aware, why)
        if first < self.size:
            return False, f"rank {first}: MPI library is not GPU-aware ({text})"
        return True, f"CUDA/ROCm-aware MPI: {why}"

    # -- arguments -----------------------------------------------------------------------------
    def _live(self, what: str) -> None:
        if self._closed:
            raise CommunicatorError(f"okl.mpi.Communicator.{what}: the communicator was "
                                    "closed (close(), or the end of its with block)")

    def _memory(self, mem: Any, what: str) -> Memory:
        if not isinstance(mem, Memory):
            raise ArgumentError(f"okl.mpi.Communicator.{what} takes okl.Memory (or a view, "
                                f"mem[a:b]), got {type(mem).__name__}")
        if mem.freed:
            raise ArgumentError(f"okl.mpi.Communicator.{what}: {mem!r} was freed")
        if mem.device is not self.dev:
            raise ArgumentError(f"okl.mpi.Communicator.{what}: {mem!r} belongs to another "
                                f"device ({mem.device!r}), not to the communicator's "
                                f"{self.dev!r}")
        return mem

    def _stream(self, stream: Any, what: str) -> Stream:
        if stream is None:
            return self.dev.current_stream
        if not isinstance(stream, Stream):
            raise ArgumentError(f"okl.mpi.Communicator.{what}: stream= takes an okl.Stream "
                                f"(dev.stream()) or None, got {type(stream).__name__}")
        if stream.device is not self.dev:
            raise ArgumentError(f"okl.mpi.Communicator.{what}: the stream belongs to "
                                f"{stream.device!r}, not to the communicator's {self.dev!r}")
        return stream

    def _messages(self, pairs: Any, what: str) -> list[tuple[int, Memory]]:
        if not isinstance(pairs, (list, tuple)):
            raise ArgumentError(f"okl.mpi.Communicator.exchange: {what} must be a list of "
                                f"(peer rank, okl.Memory) pairs, got {type(pairs).__name__}")
        out = []
        for i, pair in enumerate(pairs):
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise ArgumentError(f"okl.mpi.Communicator.exchange: {what}[{i}] must be a "
                                    f"(peer rank, okl.Memory) pair, got {pair!r:.80}")
            peer, mem = pair
            if not isinstance(peer, numbers.Integral) or isinstance(peer, bool):
                raise ArgumentError(f"okl.mpi.Communicator.exchange: {what}[{i}]: the peer "
                                    f"must be a rank (an int), got {type(peer).__name__}")
            if not 0 <= int(peer) < self.size:
                raise ArgumentError(f"okl.mpi.Communicator.exchange: {what}[{i}]: peer "
                                    f"{int(peer)} is out of range: the communicator has ranks "
                                    f"0 to {self.size - 1} (leave out neighbours that do not "
                                    "exist, e.g. MPI.PROC_NULL at the edge)")
            out.append((int(peer), self._memory(mem, f"exchange ({what}[{i}])")))
        return out

    # -- all-reduce ----------------------------------------------------------------------------
    def allreduce(self, mem: Memory, op: str = "sum", *, stream: Stream | None = None,
                  out: Memory | None = None) -> None:
        """Replace ``mem`` (an okl.Memory or a view) by its elementwise ``op`` ("sum", "max",
        "min") over the ranks, in place.  Collective.  nccl: enqueued on ``stream`` (default:
        the device's current stream), the host does not wait; later work on that stream sees
        the result.  mpi-device and host: returns once the result is in ``mem`` (the stream's
        earlier work is waited for first).  On cuda with every rank on one host and a GPU of
        its own (``reason`` says), up to 16 values go through the other GPUs' memory instead
        (okl.mpi.peers), in any mode: enqueued as with nccl, every rank adding in rank order.
        dtypes: (u)int8, (u)int32, (u)int64, float32, float64.

        ``out`` (one value of mem's dtype, not overlapping it): ``mem`` is left as it is and
        ``out`` receives the ``op`` over the ranks of the ``op`` of each rank's values -- a
        dot product's per-block partial sums summed and all-reduced in one call.  Through
        the other GPUs' memory (up to 16,384 values) one kernel does both, a kernel launch
        fewer on the solver's critical path; otherwise the rank's values are folded on its
        stream (cuda, hip) or host first.  Every rank folds the same way: the same bits
        everywhere."""
        self._live("allreduce")
        mem = self._memory(mem, "allreduce")
        if op not in OPS:
            raise ArgumentError(f"okl.mpi.Communicator.allreduce: op={op!r} is not one of "
                                f"{', '.join(OPS)}")
        if mem.dtype not in REDUCIBLE:
            raise ArgumentError(f"okl.mpi.Communicator.allreduce: dtype {mem.dtype} cannot be "
                                f"reduced; use one of {', '.join(str(d) for d in REDUCIBLE)}")
        s = self._stream(stream, "allreduce")
        if out is not None:
            self._fold(mem, op, s, out)
            return
        if mem.size == 0:
            return
        if self._peers is not None and mem.size <= LIMIT:  # (views are contiguous)
            self._held_by(s)
            self._peers.allreduce(mem, op, s)
            return
        self._capturable(s, "allreduce", [("allreduce", -1)])
        MPI = self._MPI
        mpi_op = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN}[op]
        if self.mode == "nccl":
            nccl = self._nccl_module
            with self.dev.backend.cp_device:
                ptr = mem.handle.data.ptr
                self._nccl.allReduce(ptr, ptr, mem.size,
                                     getattr(nccl, _NCCL_TYPES[mem.dtype.name]),
                                     getattr(nccl, _NCCL_OPS[op]), s.handle.ptr)
            return
        if self.mode == "mpi-device" or self._kind == "host":
            s.finish()
            self._mine.Allreduce(MPI.IN_PLACE, mem.handle, op=mpi_op)
            return
        host = self._take(mem.nbytes)
        values = host[:mem.nbytes].view(mem.dtype)
        with s:
            mem.copy_to(values, blocking=False)
        s.finish()
        self._mine.Allreduce(MPI.IN_PLACE, values, op=mpi_op)
        with s:
            mem.copy_from(values, blocking=False)
        s.finish()
        self._give(host, None)

    def _fold(self, mem: Memory, op: str, s: Stream, out: Any) -> None:
        """allreduce with ``out``: see there."""
        out = self._memory(out, "allreduce (out=)")
        _check_fold(mem, out, "okl.mpi.Communicator.allreduce")
        if self._peers is not None and mem.size <= FOLD_LIMIT:
            self._held_by(s)
            self._peers.allreduce(out, op, s, fold=mem)
            return
        fold(mem, op, stream=s, out=out)
        self.allreduce(out, op, stream=s)

    # -- neighbour exchange --------------------------------------------------------------------
    def exchange(self, sends: list, recvs: list, *, stream: Stream | None = None) -> Exchange:
        """Send each ``(peer, mem)`` of ``sends`` to ``peer`` and receive each ``(peer, mem)``
        of ``recvs`` from ``peer`` into ``mem`` (okl.Memory or views, any dtype: bytes are
        moved).  The i-th send to a peer matches that peer's i-th receive from this rank.
        Returns an Exchange; ``wait()`` it before using the received data.

        nccl: one group of sends and receives enqueued on ``stream`` after its earlier work
        (the sent buffers' producers); ``wait()`` does not block the host, work queued on
        ``stream`` afterwards sees the data, and other streams can wait for
        ``handle.event``.  mpi-device / host: the stream's earlier work is finished, then
        every receive and send is posted at once (non-blocking; staged copies go down
        first); ``wait()`` completes them and, when staged, queues the uploads on
        ``stream``."""
        self._live("exchange")
        s = self._stream(stream, "exchange")
        out = self._messages(sends, "sends")
        into = self._messages(recvs, "recvs")
        to_self = [m for p, m in out if p == self.rank]
        from_self = [m for p, m in into if p == self.rank]
        if len(to_self) != len(from_self):
            raise ArgumentError(f"okl.mpi.Communicator.exchange: {len(to_self)} send(s) to "
                                f"this rank itself ({self.rank}) but {len(from_self)} "
                                "receive(s) from it; they match in order, one for one")
        for i, (a, b) in enumerate(zip(to_self, from_self, strict=True)):
            if a.nbytes != b.nbytes:
                raise ArgumentError(f"okl.mpi.Communicator.exchange: send {i} to this rank "
                                    f"itself has {a.nbytes} bytes ({a.dtype} x {a.size}), its "
                                    f"matching receive {b.nbytes} ({b.dtype} x {b.size})")
        self._capturable(s, "exchange", [("send", p) for p, m in out if m.nbytes] +
                         [("recv", p) for p, m in into if m.nbytes])
        if self.mode == "nccl":
            return self._nccl_exchange(out, into, s)
        return self._mpi_exchange(out, into, s)

    def _capturable(self, s: Stream, what: str, uses: list[tuple[str, int]]) -> None:
        """Refuse what a graph capture on ``s`` (okl.Stream.capture) cannot hold, before any
        rank starts it -- every rank refuses alike, as the ranks make matching calls, so none
        is left waiting: the MPI modes (the host waits for the device and for MPI), and with
        NCCL a first message to or from a peer, or a first all-reduce (NCCL connects on
        first use, which waits for the device).  Otherwise note what has run uncaptured."""
        if not s.capturing:
            if self.mode == "nccl":
                self._connected.update(uses)
            return
        if self.mode != "nccl":
            raise CommunicatorError(
                f"okl.mpi.Communicator.{what}: mode {self.mode!r} waits on the host, which a "
                "graph capture cannot hold; capture with mode 'nccl', or queue this call "
                "outside the capture")
        new = [u for u in uses if u not in self._connected]
        if new:
            kind, peer = new[0]
            first = "all-reduce" if kind == "allreduce" else \
                f"message {'to' if kind == 'send' else 'from'} rank {peer}"
            raise CommunicatorError(
                f"okl.mpi.Communicator.{what}: the first {first} cannot be captured into a "
                "graph (NCCL connects on first use, which waits for the device); make the "
                "same call once outside the capture (e.g. the first iteration), then capture")
        self._held_by(s)

    def _held_by(self, s: Stream) -> None:
        """Note the graph that ``s`` captures into, if any (Stream.graph: no driver call
        while okl captures nothing): close() releases it first, as NCCL
        frees a communicator only once no graph holds its calls (ncclCommDestroy waits for
        them for ever), and a captured peers' all-reduce writes into the boxes close()
        unmaps."""
        graph = s.graph
        if graph is not None:
            self._graphs.add(graph)

    def _nccl_exchange(self, sends, recvs, s: Stream) -> Exchange:
        nccl, nc, ptr = self._nccl_module, self._nccl, s.handle.ptr
        byte = nccl.NCCL_UINT8
        with self.dev.backend.cp_device:
            nccl.groupStart()
            try:
                for peer, mem in recvs:
                    if mem.nbytes:
                        nc.recv(mem.handle.data.ptr, mem.nbytes, byte, peer, ptr)
                for peer, mem in sends:
                    if mem.nbytes:
                        nc.send(mem.handle.data.ptr, mem.nbytes, byte, peer, ptr)
            finally:
                nccl.groupEnd()
        handle = Exchange(self, s, [], [], [])
        handle.event = s.record()
        return handle

    def _mpi_exchange(self, sends, recvs, s: Stream) -> Exchange:
        MPI, comm = self._MPI, self._mine
        staged = self.mode == "host" and self._kind != "host"
        tags: dict[tuple[str, int], int] = {}

        def tag(side: str, peer: int) -> int:  # the i-th message to/from one peer: tag i
            t = tags.get((side, peer), 0)
            tags[(side, peer)] = t + 1
            return t

        requests: list = []
        uploads: list[tuple[Memory, np.ndarray]] = []
        taken: list[np.ndarray] = []
        if not staged:
            s.finish()  # MPI reads the buffers: their producers must be done
            for peer, mem in recvs:
                requests.append(comm.Irecv([mem.handle, MPI.BYTE], peer, tag("r", peer)))
            for peer, mem in sends:
                requests.append(comm.Isend([mem.handle, MPI.BYTE], peer, tag("s", peer)))
            return Exchange(self, s, requests, uploads, taken)
        for peer, mem in recvs:
            host = self._take(mem.nbytes)
            taken.append(host)
            view = host[:mem.nbytes]
            requests.append(comm.Irecv([view, MPI.BYTE], peer, tag("r", peer)))
            uploads.append((mem, view))
        downs = []
        with s:
            for peer, mem in sends:
                host = self._take(mem.nbytes)
                taken.append(host)
                view = host[:mem.nbytes]
                mem.copy_to(view.view(mem.dtype), blocking=False)
                downs.append((peer, view))
        s.finish()
        for peer, view in downs:
            requests.append(comm.Isend([view, MPI.BYTE], peer, tag("s", peer)))
        return Exchange(self, s, requests, uploads, taken)

    # -- host staging buffers ------------------------------------------------------------------
    # Pinned buffers are slow to allocate (cudaHostAlloc: ~ms): kept in a pool by size.  A
    # buffer whose upload may still be queued goes back with the event after it, and is
    # reused only after that event (normally long past).
    def _take(self, nbytes: int) -> np.ndarray:
        size = 1 << max(int(nbytes) - 1, 0).bit_length()  # round up to a power of 2
        free = self._pool.setdefault((size,), [])
        if free:
            host, event = free.pop()
            if event is not None:
                event.finish()
            return host
        return self.dev.pinned(size, np.uint8)

    def _give(self, host: np.ndarray, event: Event | None) -> None:
        self._pool.setdefault((host.nbytes,), []).append((host, event))

    # -- the end -------------------------------------------------------------------------------
    def close(self) -> None:
        """Release the NCCL communicator and the duplicated MPI communicator (collective over
        ``comm``, as MPI_Comm_free; idempotent).  Queued work of the device is waited for
        first, and every okl.Graph that captured a call of this communicator is released
        (Graph.release: launching it later raises).  ``with okl.mpi.Communicator(...) as
        c:`` closes at the end of the block."""
        if self._closed:
            return
        self._closed = True
        _OPEN.discard(self)
        self.dev.finish()
        for graph in list(self._graphs):
            graph.release("the okl.mpi.Communicator whose calls it captured is closed (NCCL "
                          "frees a communicator only once no graph holds its calls); "
                          "capture the work anew on an open one")
        if self._nccl is not None:
            self._nccl.destroy()
            self._nccl = None
        if self._peers is not None:  # every rank unmaps the others' boxes before any frees
            self._peers.unmap()
            self._mine.Barrier()
            self._peers.free()
            self._peers = None
        self._pool.clear()
        self._mine.Free()

    def __enter__(self) -> Communicator:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Exchange:
    """One ``Communicator.exchange`` in flight.  ``wait()`` completes it (idempotent);
    ``event`` (after ``wait()`` on MPI modes, at once on nccl): an okl.Event on the exchange's
    stream after which the received data is in place, for other streams to ``wait`` on."""

    def __init__(self, owner: Communicator, stream: Stream, requests: list, uploads: list,
                 taken: list):
        self._owner = owner
        self.stream = stream
        self._requests = requests
        self._uploads = uploads  # staged receives: (Memory, host bytes)
        self._taken = taken  # staging buffers to give back
        self.event: Event | None = None
        self.done = False

    def __repr__(self) -> str:
        return (f"okl.mpi.Exchange({'done' if self.done else 'in flight'}, mode "
                f"{self._owner.mode!r})")

    def wait(self) -> None:
        """nccl: nothing for the host to wait for (the exchange is queued on the stream
        before whatever comes next there).  MPI modes: wait for every receive and send,
        then (host staging) queue the uploads of the received data on the stream."""
        if self.done:
            return
        self.done = True
        if self._requests:
            self._owner._MPI.Request.Waitall(self._requests)
            self._requests = []
        s = self.stream
        if self._uploads:
            with s:
                for mem, host in self._uploads:
                    mem.copy_from(host.view(mem.dtype), blocking=False)
        if self.event is None:
            self.event = s.record()
        for host in self._taken:
            self._owner._give(host, self.event if self._uploads else None)
        self._taken = []
        self._uploads = []
