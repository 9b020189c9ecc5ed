"""The driver on several MPI ranks: which slab of the box each rank holds, and the little it
asks of communication.

Partition: the box's element layers along z (the slowest element index) are split into
contiguous slabs, one per rank, as evenly as they go (the first ``NZ % size`` ranks hold one
layer more).  A slab of at least one layer shares only its bottom plane with the rank below
and its top plane with the rank above, so a node has at most two ranks and each shared plane
is one message each way.  The lower rank owns a shared plane (hexmesh.Numbering).
benchParanumal itself factors the ranks into a 3-D grid (meshSetupBoxHex3D); a slab sends
more per rank once the ranks are many, but on the 1-8 GPUs of one host it is one face each
way and the simplest partition to check.

Communication is okl.mpi.Communicator (issue 33): ``exchange(sends=[(peer, view)],
recvs=[(peer, view)], stream=s)`` then ``.wait()`` -- views of device vectors, sent and
received as they are (the planes are contiguous runs of rows) -- and ``allreduce(view)``, the
sum over ranks of a device scalar (CG's dots), in place; it picks the transport (NCCL on
cuda, GPU-aware MPI, or host staging) and says which (``mode``, ``reason``).  One process
without MPI uses :class:`Single`, with the same calls and nothing to do.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import okl
import okl.mpi


@dataclass(frozen=True)
class Slab:
    """Rank ``rank`` of ``size`` holds layers ``k0 .. k0 + nz - 1`` of ``NZ``."""

    rank: int
    size: int
    NZ: int
    k0: int
    nz: int

    @property
    def below(self) -> int | None:
        """The rank sharing this slab's bottom plane (None: the box's boundary)."""
        return self.rank - 1 if self.rank > 0 else None

    @property
    def above(self) -> int | None:
        return self.rank + 1 if self.rank < self.size - 1 else None


def slab(NZ: int, size: int, rank: int) -> Slab:
    """The slab of ``rank``; every rank needs a layer (``NZ >= size``)."""
    if size < 1 or not 0 <= rank < size:
        raise ValueError(f"rank {rank} of {size} ranks")
    if NZ < size:
        raise ValueError(f"{NZ} element layers cannot be split over {size} ranks (one layer "
                         "each at least): use more DOFs or fewer ranks")
    base, extra = divmod(NZ, size)
    k0 = rank * base + min(rank, extra)
    return Slab(rank, size, NZ, k0, base + (1 if rank < extra else 0))


def world() -> Any:
    """mpi4py's COMM_WORLD when a launcher started this process as one of several ranks,
    else None (one process, no MPI: ``mpiexec -n 1`` too).  A launcher whose MPI is not the
    one mpi4py loaded is refused (okl.mpi.check_launcher), not run as N copies of rank 0."""
    if okl.mpi.launched_as() is None:
        return None
    try:
        from mpi4py import MPI
    except ImportError as e:
        raise SystemExit(f"started as one of several MPI ranks, but mpi4py cannot be imported "
                         f"({e}): pip install mpi4py mpich") from None
    okl.mpi.check_launcher(MPI)
    return MPI.COMM_WORLD


def device(mode: str, comm: Any) -> okl.Device:
    """This rank's device: on cuda/hip GPU ``local_rank % GPUs`` (one rank per GPU); on
    openmp, unless OMP_NUM_THREADS is set, the rank's share of the node's cores (every rank's
    team would otherwise take them all)."""
    if comm is None:
        return okl.Device(mode)
    if mode == "openmp":
        os.environ.setdefault("OMP_NUM_THREADS", str(okl.mpi.threads_per_rank(comm)))
    if mode in ("cuda", "hip"):
        import cupy
        gpus = int(cupy.cuda.runtime.getDeviceCount())
        return okl.Device(mode, device_id=okl.mpi.local_rank(comm) % gpus)
    return okl.Device(mode)


# -- one process ---------------------------------------------------------------------------------

class _Done:
    """A finished exchange (nothing for another stream to wait for)."""

    event = None

    def wait(self) -> None:
        return None


class Single:
    """One rank, no MPI: nothing to exchange or reduce."""

    mode = "none"
    reason = "one rank"
    rank = 0
    size = 1

    def allreduce(self, mem: okl.Memory, op: str = "sum", *, stream: Any = None,
                  out: okl.Memory | None = None) -> None:
        """Over one rank: ``mem`` as it is; with ``out``, its fold (okl.mpi.fold)."""
        if out is not None:
            okl.mpi.fold(mem, op, stream=stream, out=out)

    def exchange(self, sends=(), recvs=(), *, stream: Any = None) -> _Done:
        if sends or recvs:
            raise ValueError("one rank has no peers to exchange with")
        return _Done()

    def close(self) -> None:
        return None


def communicator(comm: Any, dev: okl.Device, mode: str = "auto") -> Any:
    """:class:`Single` for one rank, else okl.mpi.Communicator (collective), which chooses the
    transport (``mode``: auto, nccl, mpi-device, host)."""
    if comm is None or comm.Get_size() == 1:
        return Single()
    return okl.mpi.Communicator(comm, dev, mode=mode)


class Silent:
    """A communicator that communicates nothing, for the compute-only solve that times the
    same kernels without any exchange or reduction: the difference to the real solve is the
    exposed (non-overlapped) communication time.  Its answer is meaningless."""

    mode = "none"
    reason = "compute only"

    def __init__(self, inner: Any) -> None:
        self.rank, self.size = inner.rank, inner.size

    # nothing over the ranks; with ``out``, this rank's fold alone, so that the solve
    # computes with its own numbers and does the work of a fold
    allreduce = Single.allreduce

    def exchange(self, sends=(), recvs=(), *, stream: Any = None) -> _Done:
        return _Done()
