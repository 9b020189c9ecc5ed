"""Conjugate gradients for the 2-D Poisson problem across MPI ranks, every kernel in OKL.

    mpiexec -n 4 python examples/distributed/poisson.py --mode openmp --check

solves -(u_xx + u_yy) = f on the unit square (u = 0 on its boundary) with the 5-point
Laplacian on an N x N grid, split into a 2-D grid of blocks (one per rank, ``MPI.Compute_dims``
unless ``--dims``).  During each matrix-vector product every rank swaps one layer of halo
with its four neighbours: rows are contiguous and go as views of the vector; columns are
packed into contiguous buffers by a kernel first.  The right-hand side is manufactured from a
known grid function u (f = A u with the solver's own A), so the answer is u up to the solver's
tolerance; ``--check`` also solves on one rank (rank 0, the same kernels, the whole grid) and
exits 1 unless the two answers agree to ``check_tolerance(N)`` (see there).

Halos and dot products go through ``okl.mpi.Communicator`` (``--exchange auto|nccl|
mpi-device|host``): NCCL between GPUs, a CUDA-/ROCm-aware MPI, or host memory (serial and
openmp: no copy; opencl and GPUs with an MPI that is not GPU-aware: staged), the fastest that
works on every rank under ``auto``; the report says which and why.  The interior of A p runs
on one stream while the halo is exchanged on another (``CG``), and the dot products are
summed and all-reduced on the device.

Kernels: poisson.okl next to this file.  Timings (rank 0 prints them; ``--json`` writes them):
seconds per CG iteration and its parts (``TIMING`` says how each is measured), and per rank
the GB/s of the kernels' memory traffic over the whole iteration.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import pathlib
import socket
import sys
import time
from dataclasses import dataclass, field

import numpy as np
from mpi4py import MPI

import okl
import okl.mpi

KERNELS = pathlib.Path(__file__).with_name("poisson.okl")
NAMES = ("manufacture", "zero", "dot", "applyInterior", "applyBoundary", "sumPartials",
         "update", "direction", "packColumns", "unpackColumns")

#: --check passes when the relative 2-norm difference between the distributed answer and the
#: one-rank answer is at most CHECK_FACTOR * eps * kappa(A) (``check_tolerance``).
CHECK_FACTOR = 100.0

#: bytes each kernel of one CG iteration reads and writes per interior point (doubles):
#: applyA reads p, writes Ap; update reads p, Ap, x, r, writes x, r; direction reads r, p,
#: writes p.  The stencil's neighbours come from cache, the per-row partial sums are noise.
BYTES_PER_POINT = 8 * (2 + 6 + 3)



# -- where this rank runs --------------------------------------------------------------------
def gpu_count(mode: str) -> int:
    """GPUs the mode can choose between on this node (0 for CPU devices)."""
    if mode in ("cuda", "hip"):
        import cupy
        return int(cupy.cuda.runtime.getDeviceCount())
    if mode == "opencl":
        return len(_opencl_gpus())
    return 0


def _opencl_gpus() -> list[tuple[int, int]]:
    """(platform, device) indices of the GPUs on the platform okl would choose, if it would
    choose a GPU (PoCL on a CPU: none)."""
    from okl.runtime.drivers import clselect
    chosen = clselect.choose()
    if chosen.kind != "GPU":
        return []
    return [(c.platform_index, c.device_index) for c in clselect.candidates()
            if c.platform_index == chosen.platform_index and c.kind == "GPU"]


def make_device(mode: str, comm: MPI.Comm,
                device_id: int | None = None) -> tuple[okl.Device, bool]:
    """This rank's okl.Device, and whether it is a GPU.  On GPU modes: GPU
    ``okl.mpi.local_rank(comm) % GPUs`` (the rank's index among the ranks of its node; or
    ``device_id``), so one rank per GPU spreads out and more ranks than GPUs share them
    round-robin.  On openmp: ``OMP_NUM_THREADS`` (unless set) is the rank's share of the
    node's cores (``okl.mpi.threads_per_rank``), since each rank's team would otherwise take
    every core and oversubscribe them."""
    mode = mode.lower()
    if mode == "openmp":
        # read by the OpenMP runtime when the first kernel library loads: set it before
        # (threads_per_rank is collective: every rank of an openmp run gets here)
        os.environ.setdefault("OMP_NUM_THREADS", str(okl.mpi.threads_per_rank(comm)))
    if mode in ("cuda", "hip"):
        gpus = gpu_count(mode)
        index = device_id if device_id is not None else okl.mpi.local_rank(comm) % gpus
        return okl.Device(mode, device_id=index), True
    if mode == "opencl":
        gpus = _opencl_gpus()
        if gpus:
            platform, device = gpus[device_id if device_id is not None
                                    else okl.mpi.local_rank(comm) % len(gpus)]
            return okl.Device(mode, platform_id=platform, device_id=device), True
    return okl.Device(mode), False


def build_kernels(comm: MPI.Comm, dev: okl.Device, block: int) -> dict[str, okl.Kernel]:
    """Every kernel of poisson.okl, built once per job (okl.mpi.build_kernel: rank 0
    translates and compiles, the other ranks get the result by broadcast), instead of every
    rank compiling the same file and reading the same cache entries at once."""
    defines = {"BLOCK": block}
    return {n: okl.mpi.build_kernel(comm, dev, KERNELS, n, defines=defines) for n in NAMES}


# -- the decomposition ------------------------------------------------------------------------
def split(n: int, parts: int, index: int) -> tuple[int, int]:
    """(first, count) of part ``index`` when ``n`` points are split into ``parts`` nearly
    equal runs (the first ``n % parts`` runs one longer)."""
    base, extra = divmod(n, parts)
    return index * base + min(index, extra), base + (1 if index < extra else 0)


@dataclass
class Block:
    """One rank's share of the N x N grid and its neighbours (MPI.PROC_NULL at the edge)."""

    n: int
    dims: tuple[int, int]  # (blocks in y, blocks in x)
    coords: tuple[int, int]
    gx0: int
    gy0: int
    nx: int
    ny: int
    south: int
    north: int
    west: int
    east: int
    cart: MPI.Cartcomm = field(repr=False)

    @property
    def stride(self) -> int:
        return self.nx + 2

    def row(self, j: int) -> int:
        """Offset of row j's first interior point (j = -1 and ny: the halo rows)."""
        return (j + 1) * self.stride + 1


def decompose(comm: MPI.Comm, n: int, dims: tuple[int, int] | None = None) -> Block:
    """Split the N x N grid into a 2-D grid of blocks over ``comm`` (a Cartesian
    communicator; no reordering, so rank r of comm is rank r of the result)."""
    if dims is None:
        dims = tuple(MPI.Compute_dims(comm.size, 2))
    if dims[0] * dims[1] != comm.size:
        raise SystemExit(f"--dims {dims[0]}x{dims[1]} does not match {comm.size} ranks")
    if min(dims) < 1 or n < max(dims):
        raise SystemExit(f"an {n} x {n} grid cannot be split into {dims[0]}x{dims[1]} blocks")
    cart = comm.Create_cart(dims=list(dims), periods=[False, False], reorder=False)
    cy, cx = cart.Get_coords(cart.rank)
    gy0, ny = split(n, dims[0], cy)
    gx0, nx = split(n, dims[1], cx)
    south, north = cart.Shift(0, 1)
    west, east = cart.Shift(1, 1)
    return Block(n, (dims[0], dims[1]), (cy, cx), gx0, gy0, nx, ny, south, north, west, east,
                 cart)


# -- halo exchange ----------------------------------------------------------------------------
class Halo:
    """Fills the halo of one vector with the neighbours' edge values (4 neighbours, one layer;
    the 5-point stencil needs no corners) through an okl.mpi.Communicator, on its own stream.

    Rows are contiguous and go as views of the vector (``p[a:b]``); columns are packed into
    contiguous buffers by a kernel first and unpacked after.  ``start()`` orders the halo
    stream after the vector's last update (an event, no host wait), packs and starts the
    exchange; ``finish()`` completes it, unpacks, and returns an event after which the
    halo is filled, for the compute stream to wait on.  With NCCL nothing here blocks the
    host; with MPI the exchange's posting waits for the pack and ``finish()`` for the
    messages (while the compute stream's interior kernel runs on a GPU)."""

    def __init__(self, dev: okl.Device, comm: okl.mpi.Communicator, block: Block,
                 kernels: dict[str, okl.Kernel], p: okl.Memory, stream: okl.Stream):
        self.dev, self.comm, self.block, self.k, self.p = dev, comm, block, kernels, p
        self.stream = stream
        b = block
        self.columns = b.west != MPI.PROC_NULL or b.east != MPI.PROC_NULL
        # packed columns on the device; the receive buffers stay zero on a side without a
        # neighbour, so unpacking writes the boundary value 0 there
        self.send_w, self.send_e, self.recv_w, self.recv_e = (
            dev.zeros(b.ny, np.float64) for _ in range(4))

        def row(j: int) -> okl.Memory:
            return p[b.row(j):b.row(j) + b.nx]

        # (neighbour, buffer): rows are views of p, columns the packed buffers; one message
        # per neighbour, so the i-th-send-matches-i-th-receive rule pairs them by direction
        sends = [(b.north, row(b.ny - 1)), (b.south, row(0)), (b.east, self.send_e),
                 (b.west, self.send_w)]
        recvs = [(b.south, row(-1)), (b.north, row(b.ny)), (b.west, self.recv_w),
                 (b.east, self.recv_e)]
        self.sends = [(peer, buf) for peer, buf in sends if peer != MPI.PROC_NULL]
        self.recvs = [(peer, buf) for peer, buf in recvs if peer != MPI.PROC_NULL]
        self.bytes_sent = sum(buf.nbytes for _, buf in self.sends)  # per exchange
        self.active = bool(self.sends or self.recvs)
        self._filled = stream.record()
        self._pending: okl.mpi.Exchange | None = None

    def start(self, ready: okl.Event) -> None:
        """Pack and start the exchange once ``ready`` (the vector's last update) is reached."""
        b, h = self.block, self.stream
        h.wait(ready)
        if self.columns:
            self.k["packColumns"](b.nx, b.ny, self.p, self.send_w, self.send_e, stream=h)
        self._pending = self.comm.exchange(self.sends, self.recvs, stream=h)

    def finish(self) -> okl.Event:
        """Complete the exchange and unpack; the event after which the halo is filled."""
        b, h = self.block, self.stream
        assert self._pending is not None, "Halo.finish() without start()"
        self._pending.wait()
        self._pending = None
        if self.columns:
            self.k["unpackColumns"](b.nx, b.ny, self.recv_w, self.recv_e, self.p, stream=h)
        return h.record(self._filled)


# -- the solver -------------------------------------------------------------------------------
#: slots of CG's device scalars: r . r of this and the next iteration (alternating), p . Ap
RR_SLOTS, PAP = (0, 1), 2


@dataclass
class Result:
    iterations: int
    residual: float  # ||r|| / ||f|| at the end (the recurrence's residual)
    seconds: float  # the iterations' wall time on this rank
    halo_bytes: int  # sent by this rank per exchange


@dataclass
class Breakdown:
    """Seconds per iteration of the parts of an iteration, each timed alone on this rank
    (``CG.breakdown``); ``exposed``: what the exchange adds to an iteration, the iteration
    with it minus the iteration without it (0 when it hides completely behind the interior
    work; never below 0)."""

    compute: float  # the iteration with the halo exchange skipped
    exchange: float  # the halo exchange alone: pack, messages, unpack
    allreduce: float  # the iteration's two all-reduces of one double, alone
    exposed: float


class CG:
    """Conjugate gradients for A x = f on one rank's block, starting from x = 0.

    Every step runs on the device and is queued on streams; the host only reads the
    residual every ``residual_every`` iterations (never, with a fixed iteration count, until
    the end).  One iteration:

    - halo stream: wait for the last update of p, pack its columns, exchange with the
      neighbours (okl.mpi.Communicator), unpack;
    - compute stream, meanwhile: A p on the interior points (applyInterior), which needs no
      halo; then, after the halo's event, on the boundary points (applyBoundary);
    - compute stream: the dot products p . Ap and r . r each summed on the device into one
      scalar (sumPartials), all-reduced over the ranks in place (Communicator.allreduce,
      enqueued on the stream with NCCL), and read by the update and direction kernels from
      device memory (alpha and beta never go through the host).

    The sums' order (rows split between ranks, then the reduction over ranks) is the only
    arithmetic that depends on the rank count."""

    def __init__(self, dev: okl.Device, comm: okl.mpi.Communicator, block: Block,
                 kernels: dict[str, okl.Kernel], lanes: int, residual_every: int = 10):
        self.dev, self.comm, self.b, self.k = dev, comm, block, kernels
        self.residual_every = residual_every
        b = block
        size = (b.ny + 2) * (b.nx + 2)
        h = 1.0 / (b.n + 1)
        self.ih2 = 1.0 / (h * h)
        # two streams of our own: work on the legacy default stream of a GPU would order
        # itself against both and undo the overlap.  The halo's is of high priority: its
        # pack, NCCL and unpack kernels then start as soon as they may instead of waiting
        # until every block of the interior kernel has been scheduled
        self.compute, self.halo_stream = dev.stream(), dev.stream(priority="high")
        with self.compute:
            self.u, self.f = dev.zeros(size, np.float64), dev.zeros(size, np.float64)
            kernels["manufacture"](b.nx, b.ny, b.gx0, b.gy0, b.n, h, self.u, self.f)
            # p's halo is the only one read; zero everywhere else keeps the boundary value 0
            self.x, self.r, self.p, self.ap = (dev.zeros(size, np.float64) for _ in range(4))
            rows = 2 if b.ny > 1 else 1
            cols = 2 if b.nx > 1 else 1
            count = rows * b.nx + cols * max(b.ny - 2, 0)
            self.nb = -(-count // lanes)  # applyBoundary's @outer iterations
            self.nbx = -(-b.nx // lanes)  # direction's pieces of a row
            # applyInterior's rows, then applyBoundary's blocks; rows 0 and ny - 1 stay 0
            self.partial_ap = dev.zeros(b.ny + self.nb, np.float64)
            self.partial_rr = dev.zeros(b.ny, np.float64)
            self.scal = dev.zeros(4, np.float64)
            # one-element views for the all-reduces (made once: a view costs microseconds)
            self.slot = [self.scal[i:i + 1] for i in range(4)]
        self.halo = Halo(dev, comm, b, kernels, self.p, self.halo_stream)
        self._p_ready = self.compute.record()

    # -- one iteration, and its parts ----------------------------------------------------------
    def step(self, old: int, exchange: bool = True) -> None:
        """One CG iteration with r . r of the last one in ``scal[old]``; the new one goes to
        the other slot.  ``exchange=False`` skips the halo (timing only: the answer is then
        wrong)."""
        b, k, c, comm = self.b, self.k, self.compute, self.comm
        new = RR_SLOTS[1 - RR_SLOTS.index(old)]
        halo = exchange and self.halo.active
        # start the exchange before the interior work where starting it does not block the
        # host until the pack is done: on a CPU (kernels run as they are called: the
        # messages travel meanwhile) and with NCCL (everything is queued); with MPI on a GPU
        # queue the interior work first, since posting the messages waits for the pack
        post_first = self.dev.backend.kind == "host" or comm.mode == "nccl"
        if halo and post_first:
            self.halo.start(self._p_ready)
        k["applyInterior"](b.nx, b.ny, self.ih2, self.p, self.ap, self.partial_ap, stream=c)
        if halo:
            if not post_first:
                self.halo.start(self._p_ready)
            c.wait(self.halo.finish())
        k["applyBoundary"](b.nx, b.ny, self.nb, self.ih2, self.p, self.ap, self.partial_ap,
                           stream=c)
        k["sumPartials"](b.ny + self.nb, self.partial_ap, self.scal, PAP, stream=c)
        comm.allreduce(self.slot[PAP], stream=c)
        k["update"](b.nx, b.ny, self.scal, old, PAP, self.p, self.ap, self.x, self.r,
                    self.partial_rr, stream=c)
        k["sumPartials"](b.ny, self.partial_rr, self.scal, new, stream=c)
        comm.allreduce(self.slot[new], stream=c)
        k["direction"](b.nx, b.ny, self.nbx, self.scal, new, old, self.r, self.p, stream=c)
        c.record(self._p_ready)

    def read(self, slot: int) -> float:
        """A device scalar on the host (waits for the compute stream)."""
        with self.compute:
            return float(self.slot[slot].get()[0])

    def reset(self) -> float:
        """x = 0, r = p = f; r . r into scal[RR_SLOTS[0]] (all-reduced); returns it."""
        b, k, c = self.b, self.k, self.compute
        self.dev.finish()
        with c:
            for vec in (self.x, self.ap):
                k["zero"](vec.size, vec)
            self.r.copy_from(self.f)
            self.p.copy_from(self.f)
        k["dot"](b.nx, b.ny, self.r, self.r, self.partial_rr, stream=c)
        k["sumPartials"](b.ny, self.partial_rr, self.scal, RR_SLOTS[0], stream=c)
        self.comm.allreduce(self.slot[RR_SLOTS[0]], stream=c)
        c.record(self._p_ready)
        return self.read(RR_SLOTS[0])

    def solve(self, rtol: float, maxiter: int, exchange: bool = True) -> Result:
        """Iterate from x = 0 until ||r|| <= rtol ||f|| or ``maxiter`` iterations (rtol = 0:
        exactly maxiter, for timing and for the one-rank reference of --check).  The
        residual is read every ``residual_every`` iterations, so CG may run up to that many
        iterations past the tolerance (the answer only gets better)."""
        rr = ff = self.reset()
        self.comm.comm.Barrier()
        start = time.perf_counter()
        it, old = 0, RR_SLOTS[0]
        while it < maxiter and (rtol == 0 or rr > (rtol * rtol) * ff):
            self.step(old, exchange)
            old = RR_SLOTS[1 - RR_SLOTS.index(old)]
            it += 1
            if rtol > 0 and (it % self.residual_every == 0 or it == maxiter):
                rr = self.read(old)
        rr = self.read(old)  # waits for the last iteration
        self.dev.finish()
        seconds = time.perf_counter() - start
        return Result(it, math.sqrt(rr / ff) if ff > 0 else 0.0, seconds,
                      self.halo.bytes_sent)

    def breakdown(self, iterations: int, full: float) -> Breakdown:
        """Time the parts of an iteration alone, ``iterations`` times each (after the solve:
        they overwrite x, r and p), given ``full``, the seconds per whole iteration."""
        n = max(iterations, 1)
        compute = self.solve(0.0, n, exchange=False).seconds / n
        self.reset()
        self.comm.comm.Barrier()
        start = time.perf_counter()
        for _ in range(n if self.halo.active else 0):
            self.compute.record(self._p_ready)
            self.halo.start(self._p_ready)
            self.halo.finish()
        self.dev.finish()
        exchange = (time.perf_counter() - start) / n if self.halo.active else 0.0
        self.comm.comm.Barrier()
        start = time.perf_counter()
        with self.compute:
            for _ in range(n):
                for slot in (PAP, RR_SLOTS[0]):
                    # max: the same messages as a sum, and the values stay put
                    self.comm.allreduce(self.slot[slot], "max", stream=self.compute)
        self.dev.finish()
        allreduce = (time.perf_counter() - start) / n
        return Breakdown(compute, exchange, allreduce, max(0.0, full - compute))

    def interior(self, vec: okl.Memory) -> np.ndarray:
        """The block's interior of a vector, as a (ny, nx) numpy array."""
        b = self.b
        with self.compute:
            return vec.get().reshape(b.ny + 2, b.nx + 2)[1:-1, 1:-1]


def gather(comm: MPI.Comm, block: Block, local: np.ndarray) -> np.ndarray | None:
    """The whole N x N grid on rank 0 (None elsewhere) from every rank's (ny, nx) block."""
    parts = comm.gather((block.gy0, block.gx0, np.ascontiguousarray(local)), root=0)
    if comm.rank != 0:
        return None
    out = np.full((block.n, block.n), np.nan)
    for gy0, gx0, part in parts:
        out[gy0:gy0 + part.shape[0], gx0:gx0 + part.shape[1]] = part
    return out


def check_tolerance(n: int) -> float:
    """How far the distributed answer may be from the one-rank answer (relative 2-norm):
    100 eps kappa(A), kappa(A) = cot^2(pi h / 2) the condition number of the 5-point
    Laplacian on an n x n grid (h = 1 / (n + 1)): 2.1e-11 at n = 48, 2.4e-9 at n = 512,
    3.7e-8 at n = 2048.

    Why it is not a constant: both runs do the same arithmetic except for the order of the
    additions in the dot products (rows split between ranks, partial sums added by MPI), so
    alpha and beta differ in their last bits, and CG carries such differences into x the
    way any solve of A x = f does, amplified by up to kappa(A).  Measured (4 ranks as 2x2
    against 1 rank), the difference peaks while CG is far from converged and falls to a few
    ulps once it converges: at most 4e-15 (n = 48), 2.7e-13 (n = 128, after 20-40
    iterations), 3.4e-12 (n = 512, after 150), 1.4e-11 (n = 2048, after 60), every time at
    most 0.2 eps kappa(A); converged runs differ by 0 to 3.5e-15 (n up to 1024, 1-4 ranks,
    serial, openmp, opencl, cuda, hip).  A margin of 500 over that still rejects a real
    fault by orders of magnitude: one exchange that left stale halo values on one rank, once,
    changed the answer by 6e-3.  Both runs take the same number of iterations (``--iters``,
    or the distributed run's count when it stopped on ``--rtol``), so a stopping test that
    falls on different sides of its threshold cannot make them differ by one step."""
    kappa = 1.0 / math.tan(math.pi / (2 * (n + 1))) ** 2
    return CHECK_FACTOR * float(np.finfo(np.float64).eps) * kappa


def compare(answer: np.ndarray, reference: np.ndarray, rtol: float) -> tuple[bool, float]:
    """(agree, relative difference): ||answer - reference||_2 <= rtol ||reference||_2, over
    every point, both arrays of the same shape; NaN anywhere (a point no rank wrote) or a
    shape mismatch never agrees."""
    if answer.shape != reference.shape:
        return False, math.inf
    scale = float(np.linalg.norm(reference))
    diff = float(np.linalg.norm(answer - reference))
    rel = diff / scale if scale > 0 else diff
    if not math.isfinite(rel):
        return False, math.inf
    return rel <= rtol, rel


# -- the program ------------------------------------------------------------------------------
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mode", default="serial",
                   help="okl mode: serial, openmp, opencl, cuda, hip (default serial)")
    p.add_argument("--n", type=int, default=256, help="grid points per side (default 256)")
    p.add_argument("--rtol", type=float, default=1e-8,
                   help="stop when ||r|| <= rtol ||f|| (default 1e-8)")
    p.add_argument("--iters", type=int, default=None,
                   help="run exactly this many iterations instead (timing runs)")
    p.add_argument("--maxiter", type=int, default=100_000)
    p.add_argument("--dims", default=None,
                   help="blocks in y and x, e.g. 2x2 or 1x4 (default: MPI.Compute_dims)")
    p.add_argument("--exchange", choices=okl.mpi.communicator.MODES, default="auto",
                   help="okl.mpi.Communicator mode: nccl, mpi-device (CUDA-aware MPI), host, "
                        "or auto (the fastest that works; the report says which and why)")
    p.add_argument("--residual-every", type=int, default=10, metavar="K",
                   help="read the residual on the host every K iterations (default 10; "
                        "with --iters only at the end)")
    p.add_argument("--no-breakdown", dest="breakdown", action="store_false",
                   help="skip timing the parts of an iteration alone after the solve")
    p.add_argument("--check", action="store_true",
                   help="also solve on one rank and exit 1 unless the answers agree")
    p.add_argument("--device-id", type=int, default=None,
                   help="GPU to use (default: local rank modulo the node's GPUs)")
    p.add_argument("--block", type=int, default=256,
                   help="lanes per @outer iteration in the kernels (BLOCK, a power of 2)")
    p.add_argument("--warmup", type=int, default=2,
                   help="untimed iterations first (launch paths, caches; default 2)")
    p.add_argument("--json", default=None, help="write rank 0's report here (JSON)")
    args = p.parse_args(argv)
    if args.dims is not None:
        try:
            y, x = (int(v) for v in args.dims.lower().split("x"))
        except ValueError:
            p.error(f"--dims {args.dims!r}: give two counts, e.g. 2x2")
        args.dims = (y, x)
    if args.block < 1 or args.block & (args.block - 1):
        p.error("--block must be a power of 2")
    if args.residual_every < 1:
        p.error("--residual-every must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    """Solve, report, and with --check compare with the one-rank solve; 1 when they differ
    (returned on every rank, so mpiexec's own exit status says so)."""
    args = parse_args(argv)
    comm = MPI.COMM_WORLD
    dev, on_gpu = make_device(args.mode, comm, args.device_id)
    kernels = build_kernels(comm, dev, args.block)
    block = decompose(comm, args.n, args.dims)
    try:
        communicator = okl.mpi.Communicator(block.cart, dev, mode=args.exchange)
    except okl.mpi.CommunicatorError as e:  # the same on every rank
        if comm.rank == 0:
            print(f"poisson: --exchange {args.exchange}: {e}", file=sys.stderr, flush=True)
        return 2
    solver = CG(dev, communicator, block, kernels, args.block, args.residual_every)

    fixed = args.iters is not None
    rtol, maxiter = (0.0, args.iters) if fixed else (args.rtol, args.maxiter)
    if args.warmup:
        solver.solve(0.0, args.warmup)
    result = solver.solve(rtol, maxiter)
    x = solver.interior(solver.x)
    u = solver.interior(solver.u)
    per_iteration = result.seconds / max(result.iterations, 1)
    parts = solver.breakdown(result.iterations, per_iteration) if args.breakdown else None
    local = np.array([np.sum((x - u) ** 2), np.sum(u * u)])
    comm.Allreduce(MPI.IN_PLACE, local, op=MPI.SUM)
    error = math.sqrt(local[0] / local[1])  # against the manufactured (exact discrete) u

    check, rel, tolerance = "not run", None, check_tolerance(args.n)
    if args.check:
        answer = gather(comm, block, x)
        ok = True
        if comm.rank == 0:
            # the same kernels on one rank and the whole grid, for the same iteration count
            one = decompose(MPI.COMM_SELF, args.n, (1, 1))
            with okl.mpi.Communicator(one.cart, dev, mode="host") as alone:
                ref_solver = CG(dev, alone, one, kernels, args.block)
                ref = ref_solver.solve(0.0, result.iterations)
                ok, rel = compare(answer, ref_solver.interior(ref_solver.x), tolerance)
                ref_solver = None
            check = "pass" if ok else "fail"
            print(f"check: {check}: one-rank answer after {ref.iterations} iterations, "
                  f"relative difference {rel:.3e} (tolerance {tolerance:.2g})", flush=True)
        check = comm.bcast(check, root=0)

    per_rank = comm.gather({
        "rank": comm.rank, "host": socket.gethostname(), "device": dev.name,
        "device_id": getattr(dev.backend, "device_id", None),
        "nx": block.nx, "ny": block.ny,
        "seconds_per_iteration": per_iteration,
        "compute_seconds_per_iteration": parts and parts.compute,
        "exchange_seconds_per_iteration": parts and parts.exchange,
        "exposed_exchange_seconds_per_iteration": parts and parts.exposed,
        "allreduce_seconds_per_iteration": parts and parts.allreduce,
        "halo_bytes": result.halo_bytes,
        "gbps": BYTES_PER_POINT * block.nx * block.ny * result.iterations
        / max(result.seconds, 1e-30) / 1e9,
    }, root=0)
    if comm.rank == 0:
        report = make_report(args, comm, block, dev, on_gpu, communicator, result, error,
                             check, rel, tolerance, per_rank)
        print_report(report)
        if args.json:
            pathlib.Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    communicator.close()
    return 1 if check == "fail" else 0


#: how the report's times are measured (also in its JSON, for the benchmark's rows)
TIMING = ("seconds_per_iteration: the timed solve's wall time over its iterations (overlapped "
          "halo exchange); compute: the same iterations with the halo exchange skipped; "
          "exchange: the halo exchange alone (pack, messages, unpack; nothing else running); "
          "exposed: seconds_per_iteration - compute (what the exchange adds to an "
          "iteration, 0 when fully hidden); allreduce: the iteration's two one-double "
          "all-reduces alone.  Each is this rank's own; the report's top level takes the "
          "slowest rank's (a bulk-synchronous solver runs at its pace) and exposed from those")


def make_report(args, comm, block, dev, on_gpu, communicator, result, error, check, rel,
                tolerance, per_rank) -> dict:
    """One run as one JSON object (the row benchmarks/mpi_scaling.py collects); ``gpus``:
    distinct GPUs the ranks used (0 on CPU devices)."""
    gpus = len({(r["host"], r["device"], r["device_id"]) for r in per_rank}) if on_gpu else 0

    def slowest(key: str) -> float | None:
        values = [r[key] for r in per_rank if r[key] is not None]
        return max(values) if values else None

    full, compute = slowest("seconds_per_iteration"), slowest("compute_seconds_per_iteration")
    return {
        "ranks": comm.size, "gpus": gpus, "mode": dev.mode, "device": dev.name,
        "n": args.n, "points": args.n * args.n, "dims": list(block.dims),
        "points_per_rank": max(r["nx"] * r["ny"] for r in per_rank),
        "omp_num_threads": (int(os.environ["OMP_NUM_THREADS"]) if dev.mode == "openmp"
                            else None),
        "exchange": communicator.mode, "exchange_reason": communicator.reason,
        "iterations": result.iterations, "fixed_iterations": args.iters is not None,
        "residual": result.residual, "error_vs_exact": error,
        "seconds_per_iteration": full,
        "compute_seconds_per_iteration": compute,
        "exchange_seconds_per_iteration": slowest("exchange_seconds_per_iteration"),
        "exposed_exchange_seconds_per_iteration": (None if compute is None
                                                   else max(0.0, full - compute)),
        "allreduce_seconds_per_iteration": slowest("allreduce_seconds_per_iteration"),
        "timing": TIMING,
        "bytes_per_point": BYTES_PER_POINT,
        "check": check, "check_relative_difference": rel, "check_tolerance": tolerance,
        "per_rank": per_rank,
    }


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1e3:.3f}"


def print_report(r: dict) -> None:
    stop = "fixed" if r["fixed_iterations"] else f"||r||/||f|| = {r['residual']:.2e}"
    print(f"poisson: {r['n']} x {r['n']} grid, {r['ranks']} rank(s) as {r['dims'][0]}x"
          f"{r['dims'][1]} blocks, mode {r['mode']} ({r['device']}), "
          f"{r['iterations']} CG iterations ({stop})")
    print(f"exchange: {r['exchange']} ({r['exchange_reason']})")
    print(f"error vs the exact discrete solution: {r['error_vs_exact']:.3e} (relative 2-norm)")
    print(f"ms per iteration {_ms(r['seconds_per_iteration'])}: compute "
          f"{_ms(r['compute_seconds_per_iteration'])}, halo exchange "
          f"{_ms(r['exchange_seconds_per_iteration'])} alone, exposed "
          f"{_ms(r['exposed_exchange_seconds_per_iteration'])}, all-reduces "
          f"{_ms(r['allreduce_seconds_per_iteration'])} alone (slowest rank)")
    print(" rank  block        ms/iter  compute  exchange  exposed  allreduce  halo KiB   GB/s")
    for p in r["per_rank"]:
        print(f" {p['rank']:4d}  {p['ny']:5d}x{p['nx']:<5d}  "
              f"{_ms(p['seconds_per_iteration']):>7}  "
              f"{_ms(p['compute_seconds_per_iteration']):>7}  "
              f"{_ms(p['exchange_seconds_per_iteration']):>8}  "
              f"{_ms(p['exposed_exchange_seconds_per_iteration']):>7}  "
              f"{_ms(p['allreduce_seconds_per_iteration']):>9}  "
              f"{p['halo_bytes'] / 1024:8.1f}  {p['gbps']:6.2f}")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
