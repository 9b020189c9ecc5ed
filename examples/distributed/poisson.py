"""Conjugate gradients for the 2-D Poisson problem across MPI ranks, every kernel in OKL.

    mpiexec -n 4 python examples/distributed/poisson.py --mode openmp --check

solves -(u_xx + u_yy) = f on the unit square (u = 0 on its boundary) with the 5-point
Laplacian on an N x N grid, split into a 2-D grid of blocks (one per rank, ``MPI.Compute_dims``
unless ``--dims``).  Before each matrix-vector product every rank swaps one layer of halo with
its four neighbours: rows are contiguous and go to MPI as views of the vector; columns are
packed into contiguous buffers by a kernel first.  The right-hand side is manufactured from a
known grid function u (f = A u with the solver's own A), so the answer is u up to the solver's
tolerance; ``--check`` also solves on one rank (rank 0, the same kernels, the whole grid) and
exits 1 unless the two answers agree to ``check_tolerance(N)`` (see there).

The halo exchange hands the device's buffers to MPI directly where it can (``--exchange
device``): on serial and openmp they are host memory; on cuda and hip only where the MPI
library is CUDA/ROCm-aware.  Otherwise (opencl, or a library that is not GPU-aware) it stages
through host arrays (``--exchange host``).  ``--exchange auto`` (the default) asks the library
and tries a device buffer once, falling back to host staging; the report says which it chose
and why.

Kernels: poisson.okl next to this file.  Timings (rank 0 prints them; ``--json`` writes them):
seconds per CG iteration, of which halo exchange, and per rank the GB/s of the kernels'
memory traffic over the whole iteration.
"""

from __future__ import annotations

import argparse
import ctypes
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
NAMES = ("manufacture", "dot", "applyA", "update", "direction", "packColumns",
         "unpackColumns")

#: --check passes when the relative 2-norm difference between the distributed answer and the
#: one-rank answer is at most CHECK_FACTOR * eps * kappa(A) (``check_tolerance``).
CHECK_FACTOR = 100.0

#: bytes each kernel of one CG iteration reads and writes per interior point (doubles):
#: applyA reads p, writes Ap; update reads p, Ap, x, r, writes x, r; direction reads r, p,
#: writes p.  The stencil's neighbours come from cache, the per-row partial sums are noise.
BYTES_PER_POINT = 8 * (2 + 6 + 3)

# message tags: the direction the data travels
NORTHWARD, SOUTHWARD, EASTWARD, WESTWARD = range(4)


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
def mpi_gpu_support(gpu: str) -> tuple[bool, str]:
    """Whether the MPI library says it takes device pointers of ``gpu`` ("cuda" or "hip"),
    and how it said so.  Asked of the library itself (MPICH's MPIX_GPU_query_support, Open MPI's
    MPIX_Query_cuda_support / MPIX_Query_rocm_support), since a library that is not
    GPU-aware does not raise on a device pointer: it reads it as host memory and crashes
    (seen: the PyPI mpich wheel, --exchange device, on an H100)."""
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
        query = getattr(lib, "MPIX_GPU_query_support", None)
        if query is not None:
            flag = ctypes.c_int(0)
            code = {"cuda": 0, "hip": 2}[gpu]  # MPIX_GPU_SUPPORT_CUDA, MPIX_GPU_SUPPORT_HIP
            if query(code, ctypes.byref(flag)) == 0:
                return bool(flag.value), f"MPIX_GPU_query_support({gpu}) = {flag.value}"
        name = {"cuda": "MPIX_Query_cuda_support", "hip": "MPIX_Query_rocm_support"}[gpu]
        query = getattr(lib, name, None)
        if query is not None:
            value = int(query())
            return bool(value), f"{name}() = {value}"
    if not libs:
        return False, "no libmpi among the loaded libraries (taken as not GPU-aware)"
    return False, "the MPI library has no GPU-support query (taken as not GPU-aware)"


def probe_device_exchange(dev: okl.Device, ask_library: bool) -> tuple[bool, str]:
    """Can okl.Memory go to mpi4py as it is?  Sends a device buffer to this rank itself
    (COMM_SELF) and checks what arrives.  mpi4py takes it through DLPack (serial, openmp:
    host memory) or ``__cuda_array_interface__`` (cuda, hip); opencl memory has neither and
    fails here.  On GPU modes the library is asked first (``ask_library``; --exchange device
    skips that): passing it a device pointer it cannot handle would crash, not raise."""
    if ask_library and dev.mode in ("cuda", "hip"):
        import cupy
        # okl's hip mode runs on NVIDIA GPUs too: what MPI sees then is a CUDA pointer
        aware, how = mpi_gpu_support("hip" if cupy.cuda.runtime.is_hip else "cuda")
        if not aware:
            return False, f"MPI library is not GPU-aware ({how})"
    expected = np.arange(1.0, 9.0)
    src = dev.asarray(expected, copy=True)
    dst = dev.zeros(expected.size, np.float64)
    try:
        dev.finish()
        MPI.COMM_SELF.Sendrecv(src[2:6], dest=0, sendtag=7, recvbuf=dst[1:5], source=0,
                               recvtag=7)
        got = dst.get()
    except Exception as e:  # mpi4py's refusal of the object (TypeError, BufferError, ...)
        return False, f"mpi4py cannot take okl.Memory here: {type(e).__name__}: {e}"
    want = np.zeros_like(expected)
    want[1:5] = expected[2:6]
    if not np.array_equal(got, want):
        return False, f"a device-buffer Sendrecv delivered {got}, not {want}"
    return True, "device buffers go to MPI directly (probe passed)"


class HaloExchange:
    """Fills the halo of one vector with the neighbours' edge values (4 neighbours, one layer;
    the 5-point stencil needs no corners).  ``device``: MPI reads and writes the vector's
    rows (views) and the packed column buffers in place; ``host``: every message goes
    through host arrays (``dev.pinned``: page-locked on GPUs) with copies either side.
    Non-blocking receives and sends, all posted at once, then one Waitall."""

    def __init__(self, dev: okl.Device, block: Block, kernels: dict[str, okl.Kernel],
                 strategy: str, p: okl.Memory):
        self.dev, self.block, self.k, self.strategy, self.p = dev, block, kernels, strategy, p
        b = block
        self.columns = b.west != MPI.PROC_NULL or b.east != MPI.PROC_NULL
        # packed columns on the device; the receive buffers stay zero on a side without a
        # neighbour, so unpacking writes the boundary value 0 there
        self.send_w, self.send_e, self.recv_w, self.recv_e = (
            dev.zeros(b.ny, np.float64) for _ in range(4))

        def row(j: int) -> okl.Memory:
            return p[b.row(j):b.row(j) + b.nx]

        # (neighbour, tag, device buffer): rows are views of p, columns the packed buffers
        self.sends = [(b.north, NORTHWARD, row(b.ny - 1)), (b.south, SOUTHWARD, row(0)),
                      (b.east, EASTWARD, self.send_e), (b.west, WESTWARD, self.send_w)]
        self.recvs = [(b.south, NORTHWARD, row(-1)), (b.north, SOUTHWARD, row(b.ny)),
                      (b.west, EASTWARD, self.recv_w), (b.east, WESTWARD, self.recv_e)]
        self.sends = [s for s in self.sends if s[0] != MPI.PROC_NULL]
        self.recvs = [r for r in self.recvs if r[0] != MPI.PROC_NULL]
        # host staging: one host array per message
        self.h_sends = [dev.pinned(m[2].size, np.float64) for m in self.sends] \
            if strategy == "host" else []
        self.h_recvs = [dev.pinned(m[2].size, np.float64) for m in self.recvs] \
            if strategy == "host" else []
        self.seconds = 0.0  # time spent in exchange(), summed
        self.bytes_sent = 8 * sum(m[2].size for m in self.sends)  # per exchange

    def exchange(self) -> None:
        """Fill p's halo; returns once it is filled (kernels after it see the values).

        Timed from a finished device (the kernels queued before belong to the iteration, not
        to the exchange) to a finished unpack."""
        b, dev, cart = self.block, self.dev, self.block.cart
        dev.finish()
        start = time.perf_counter()
        if self.columns:
            self.k["packColumns"](b.nx, b.ny, self.p, self.send_w, self.send_e)
            dev.finish()  # packed before MPI reads the buffers
        if self.strategy == "device":
            requests = [cart.Irecv(buf, peer, tag) for peer, tag, buf in self.recvs]
            requests += [cart.Isend(buf, peer, tag) for peer, tag, buf in self.sends]
            MPI.Request.Waitall(requests)
        else:
            requests = [cart.Irecv(host, peer, tag)
                        for (peer, tag, _), host in zip(self.recvs, self.h_recvs, strict=True)]
            # every copy queued, then one wait (pinned memory: truly asynchronous on GPUs)
            for (_, _, buf), host in zip(self.sends, self.h_sends, strict=True):
                buf.copy_to(host, blocking=False)
            dev.finish()
            requests += [cart.Isend(host, peer, tag)
                         for (peer, tag, _), host in zip(self.sends, self.h_sends, strict=True)]
            MPI.Request.Waitall(requests)
            for (_, _, buf), host in zip(self.recvs, self.h_recvs, strict=True):
                buf.copy_from(host, blocking=False)
        if self.columns:
            self.k["unpackColumns"](b.nx, b.ny, self.recv_w, self.recv_e, self.p)
        dev.finish()
        self.seconds += time.perf_counter() - start


def choose_exchange(dev: okl.Device, comm: MPI.Comm, wanted: str) -> tuple[str, str]:
    """(strategy, why), the same on every rank.  ``auto``: device where every rank's probe
    passed, else host; ``device``: device or exit with the probe's reason; ``host``: host."""
    if wanted == "host":
        return "host", "--exchange host"
    ok, why = probe_device_exchange(dev, ask_library=(wanted == "auto"))
    everywhere = comm.allreduce(ok, op=MPI.LAND)
    if everywhere:
        return "device", why
    if wanted == "device":
        raise SystemExit(f"--exchange device: rank {comm.rank}: {why}" if not ok else
                         "--exchange device: another rank's probe failed")
    if ok:
        why = "another rank cannot hand device buffers to MPI"
    return "host", f"host staging: {why}"


# -- the solver -------------------------------------------------------------------------------
@dataclass
class Result:
    iterations: int
    residual: float  # ||r|| / ||f|| at the end (the recurrence's residual)
    seconds: float  # the iterations' wall time on this rank
    exchange_seconds: float
    halo_bytes: int  # sent by this rank per exchange


class CG:
    """Conjugate gradients for A x = f on one rank's block, starting from x = 0.

    Two global reductions per iteration (p.Ap, r.r), each a kernel's per-row partial sums,
    added on the host and then across ranks with one Allreduce of a double: the order of
    those additions is the only arithmetic that depends on the rank count."""

    def __init__(self, dev: okl.Device, comm: MPI.Comm, block: Block,
                 kernels: dict[str, okl.Kernel], strategy: str):
        self.dev, self.comm, self.b, self.k = dev, comm, block, kernels
        b = block
        size = (b.ny + 2) * (b.nx + 2)
        h = 1.0 / (b.n + 1)
        self.ih2 = 1.0 / (h * h)
        self.u, self.f = dev.zeros(size, np.float64), dev.zeros(size, np.float64)
        kernels["manufacture"](b.nx, b.ny, b.gx0, b.gy0, b.n, h, self.u, self.f)
        # p's halo is the only one read; zero everywhere else keeps the boundary value 0
        self.x, self.r, self.p, self.ap = (dev.zeros(size, np.float64) for _ in range(4))
        self.partial = dev.zeros(b.ny, np.float64)
        self.h_partial = dev.pinned(b.ny, np.float64)
        self.halo = HaloExchange(dev, b, kernels, strategy, self.p)
        self._sum = np.zeros(1)

    def allsum(self) -> float:
        """The global sum of the per-row partial sums the last kernel wrote."""
        self.partial.copy_to(self.h_partial)  # waits for the kernel
        self._sum[0] = float(np.sum(self.h_partial))
        self.comm.Allreduce(MPI.IN_PLACE, self._sum, op=MPI.SUM)
        return float(self._sum[0])

    def solve(self, rtol: float, maxiter: int) -> Result:
        """Iterate from x = 0 until ||r|| <= rtol ||f|| or ``maxiter`` iterations (rtol = 0:
        exactly maxiter, for timing and for the one-rank reference of --check)."""
        b, k = self.b, self.k
        for vec in (self.x, self.p, self.ap):
            vec.copy_from(np.zeros(vec.size))
        self.r.copy_from(self.f)
        self.p.copy_from(self.f)
        k["dot"](b.nx, b.ny, self.r, self.r, self.partial)
        rr = ff = self.allsum()
        self.halo.seconds = 0.0
        self.comm.Barrier()
        start = time.perf_counter()
        it = 0
        while it < maxiter and rr > (rtol * rtol) * ff:
            self.halo.exchange()
            k["applyA"](b.nx, b.ny, self.ih2, self.p, self.ap, self.partial)
            alpha = rr / self.allsum()
            k["update"](b.nx, b.ny, alpha, self.p, self.ap, self.x, self.r, self.partial)
            rr_new = self.allsum()
            k["direction"](b.nx, b.ny, rr_new / rr, self.r, self.p)
            rr = rr_new
            it += 1
        self.dev.finish()
        seconds = time.perf_counter() - start
        return Result(it, math.sqrt(rr / ff) if ff > 0 else 0.0, seconds, self.halo.seconds,
                      self.halo.bytes_sent)

    def interior(self, vec: okl.Memory) -> np.ndarray:
        """The block's interior of a vector, as a (ny, nx) numpy array."""
        b = self.b
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
    p.add_argument("--exchange", choices=("auto", "device", "host"), default="auto",
                   help="halo buffers to MPI directly, through host arrays, or probe (auto)")
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
    return args


def main(argv: list[str] | None = None) -> int:
    """Solve, report, and with --check compare with the one-rank solve; 1 when they differ
    (returned on every rank, so mpiexec's own exit status says so)."""
    args = parse_args(argv)
    comm = MPI.COMM_WORLD
    dev, on_gpu = make_device(args.mode, comm, args.device_id)
    kernels = build_kernels(comm, dev, args.block)
    block = decompose(comm, args.n, args.dims)
    strategy, why = choose_exchange(dev, comm, args.exchange)
    solver = CG(dev, block.cart, block, kernels, strategy)

    fixed = args.iters is not None
    rtol, maxiter = (0.0, args.iters) if fixed else (args.rtol, args.maxiter)
    if args.warmup:
        solver.solve(0.0, args.warmup)
    result = solver.solve(rtol, maxiter)
    x = solver.interior(solver.x)
    u = solver.interior(solver.u)
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
            ref_solver = CG(dev, one.cart, one, kernels, "device")
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
        "seconds_per_iteration": result.seconds / max(result.iterations, 1),
        "exchange_seconds_per_iteration": result.exchange_seconds / max(result.iterations, 1),
        "halo_bytes": result.halo_bytes,
        "gbps": BYTES_PER_POINT * block.nx * block.ny * result.iterations
        / max(result.seconds, 1e-30) / 1e9,
    }, root=0)
    if comm.rank == 0:
        report = make_report(args, comm, block, dev, on_gpu, strategy, why, result, error,
                             check, rel, tolerance, per_rank)
        print_report(report)
        if args.json:
            pathlib.Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    return 1 if check == "fail" else 0


def make_report(args, comm, block, dev, on_gpu, strategy, why, result, error, check, rel,
                tolerance, per_rank) -> dict:
    """One run as one JSON object (the row benchmarks/mpi_scaling.py collects); ``gpus``:
    distinct GPUs the ranks used (0 on CPU devices)."""
    gpus = len({(r["host"], r["device"], r["device_id"]) for r in per_rank}) if on_gpu else 0
    return {
        "ranks": comm.size, "gpus": gpus, "mode": dev.mode, "device": dev.name,
        "n": args.n, "points": args.n * args.n, "dims": list(block.dims),
        "points_per_rank": max(r["nx"] * r["ny"] for r in per_rank),
        "omp_num_threads": (int(os.environ["OMP_NUM_THREADS"]) if dev.mode == "openmp"
                            else None),
        "exchange": strategy, "exchange_reason": why,
        "iterations": result.iterations, "fixed_iterations": args.iters is not None,
        "residual": result.residual, "error_vs_exact": error,
        # the slowest rank sets the pace of a bulk-synchronous solver
        "seconds_per_iteration": max(r["seconds_per_iteration"] for r in per_rank),
        "exchange_seconds_per_iteration": max(r["exchange_seconds_per_iteration"]
                                              for r in per_rank),
        "bytes_per_point": BYTES_PER_POINT,
        "check": check, "check_relative_difference": rel, "check_tolerance": tolerance,
        "per_rank": per_rank,
    }


def print_report(r: dict) -> None:
    stop = "fixed" if r["fixed_iterations"] else f"||r||/||f|| = {r['residual']:.2e}"
    print(f"poisson: {r['n']} x {r['n']} grid, {r['ranks']} rank(s) as {r['dims'][0]}x"
          f"{r['dims'][1]} blocks, mode {r['mode']} ({r['device']}), "
          f"{r['iterations']} CG iterations ({stop})")
    print(f"exchange: {r['exchange']} ({r['exchange_reason']})")
    print(f"error vs the exact discrete solution: {r['error_vs_exact']:.3e} (relative 2-norm)")
    print(f"time per iteration {r['seconds_per_iteration'] * 1e3:.3f} ms, halo exchange "
          f"{r['exchange_seconds_per_iteration'] * 1e3:.3f} ms (slowest rank)")
    print(" rank  block        ms/iter  exchange ms  halo KiB   GB/s")
    for p in r["per_rank"]:
        ms = p["seconds_per_iteration"] * 1e3
        exchange_ms = p["exchange_seconds_per_iteration"] * 1e3
        print(f" {p['rank']:4d}  {p['ny']:5d}x{p['nx']:<5d}  {ms:8.3f}  {exchange_ms:11.3f}"
              f"  {p['halo_bytes'] / 1024:8.1f}  {p['gbps']:6.2f}")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
