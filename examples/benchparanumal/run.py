"""benchParanumal's bake-off problems (BK1-BK6, BP1-BP6) on okl, from its own .okl files.

    python examples/benchparanumal/run.py --kernels PATH/TO/benchparanumal --problem BP5 \\
        --degree 7 --ndofs 4000000 --mode cuda [--json out.json]

reads benchParanumal's kernels unchanged from the checkout ``--kernels`` names (okl ships
none of them; without ``--kernels`` it uses okl's own stand-ins in ``standins/``, which
cover BK5/BP5), builds them with the defines and kernel names benchParanumal's C++ setup
uses, sets up in numpy what that setup computes (hexmesh.py: the box mesh, reference
operators, geometric factors, the masked numbering and gather), and runs what
benchParanumal's BK/BP ``Run`` does: the right-hand side, then the operator 5 + 50 times
(BK), or an untimed CG solve and a timed one of 100 iterations (BP) with benchParanumal's
own linear-algebra, gather and CG-update kernels.  It prints benchParanumal's line.
Hexahedra; the box has ``nx = round((ndofs / (Nfields p^3))^(1/3))`` elements per direction,
as benchParanumal's run scripts choose it (``--nx`` overrides).

Under ``mpiexec -n R`` (the BPs): the box in slabs along z, one per rank and GPU
(``ranks.py``); ``--ndofs-per-rank D`` gives each rank D DOFs (weak scaling), ``--check``
compares with one rank's solve of the same box, and rank 0 prints a JSON line with the
exchange mode and the compute, exchange and exposed seconds per iteration
(docs/benchparanumal.rst, "On several ranks")::

    mpiexec -n 4 python examples/benchparanumal/run.py --problem BP5 --degree 3 \\
        --ndofs 2e4 --mode serial --check
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import hexmesh  # noqa: E402
import ranks  # noqa: E402
from problems import Problem, parse  # noqa: E402

import okl  # noqa: E402
import okl.mpi  # noqa: E402

STANDINS = HERE / "standins"
OGS_BLOCK = 256
LINALG_BLOCK = 256
CG_BLOCK = 512
SUMS = ("host", "device", "resident")
#: CG(graphs=): auto (CUDA graphs where CG can use them: see CG) or off
GRAPHS = ("auto", "off")
RESIDENT = HERE / "resident.okl"


class Setup:
    """Everything a problem's kernels read, on one okl device: the whole box, or (``part``)
    one rank's slab of it (ranks.py), with ``comm`` (ranks.communicator) for the sums and
    values of the nodes it shares with the ranks beside it."""

    def __init__(self, dev: okl.Device, root: Path, problem: Problem, degree: int,
                 nx: int, ny: int, nz: int, mode: str, part: ranks.Slab | None = None,
                 comm: Any = None, build: Callable[..., okl.Kernel] | None = None) -> None:
        self.dev, self.problem, self.degree = dev, problem, degree
        self.part = part or ranks.slab(nz, 1, 0)
        self.comm = comm or ranks.Single()
        part = self.part
        self.ref = hexmesh.Reference(degree)
        self.mesh = hexmesh.BoxMesh(self.ref, nx, ny, part.nz, part.k0, part.NZ)
        self.E = self.mesh.E
        x, y, z = self.mesh.physical_nodes()
        wJ, ggeo = self.mesh.geometric_factors(x, y, z)
        self.num = hexmesh.numbering(self.mesh, problem.nfields,
                                     shared_below=part.below is not None,
                                     shared_above=part.above is not None)
        self.host = {"x": x, "y": y, "z": z, "wJ": wJ, "ggeo": ggeo}
        a = dev.asarray
        self.lists = self._element_lists(nx * ny)
        self.o = {"x": a(x), "y": a(y), "z": a(z), "wJ": a(wJ), "ggeo": a(ggeo),
                  "gllw": a(self.ref.gllw), "D": a(self.ref.D.reshape(-1)),
                  "MM": a(self.ref.MM.reshape(-1)),
                  "empty": dev.zeros(1, np.float64),
                  "GlobalToLocal": a(self.num.global_to_local),
                  "blockStarts": a(self.num.block_starts),
                  "rowStarts": a(self.num.row_starts), "colIds": a(self.num.col_ids)}
        # each element list as its own buffer: the C++ code passes an offset into one list,
        # which OpenCL can pass to a kernel only at the device's base address alignment
        self.o.update({name: a(ids) for name, ids in self.lists.items() if len(ids)})
        num = self.num
        if num.Nhalo:
            self.o.update(haloBlockStarts=a(num.halo_block_starts),
                          haloRowStarts=a(num.halo_row_starts), haloColIds=a(num.halo_col_ids))
        # the partial sums of the shared planes: this rank's of the halo rows (sent down),
        # the rank above's of this rank's top plane (received)
        self.down = dev.zeros(num.Nhalo, np.float64) if num.Nhalo else None
        # values_exchange's messages per vector: (the vector, sends, receives)
        self._planes: dict[int, tuple] = {}
        self.up = dev.zeros(num.Nsend, np.float64) if num.Nsend else None
        # the operator's gather with the received sums as the last member of their rows,
        # read from the local vector's tail (hexmesh.with_received; CG.operator)
        if num.Nsend:
            starts, cols, blocks = hexmesh.with_received(num, self.nlocal)
            self.o.update(receivedRowStarts=a(starts), receivedColIds=a(cols),
                          receivedBlockStarts=a(blocks))
            self.received_blocks = len(blocks) - 1
        if problem.cubature:
            cubwJ, cubggeo = self.mesh.cubature_factors(x, y, z)
            self.host.update(cubwJ=cubwJ, cubggeo=cubggeo)
            self.o.update(cubwJ=a(cubwJ), cubggeo=a(cubggeo),
                          cubInterp=a(self.ref.cubInterp.reshape(-1)),
                          cubD=a(self.ref.cubD.reshape(-1)))
        build = self.build = build or dev.build_kernel
        defines = problem.defines(degree, mode)
        path, name = problem.operator
        self.operator_kernel = build(root / path, name, defines=defines,
                                     include_dirs=[root / "okl"])
        self.rhs_kernel = build(root / "okl" / "rhsHex3D.okl", "rhsHex3D", defines=defines,
                                include_dirs=[root / "okl"])
        platform = self.platform = {k: v for k, v in defines.items() if not k.startswith("p_")}
        ogs = dict(platform, p_blockSize=OGS_BLOCK, p_gatherNodesPerBlock=512, T="double",
                   OGS_OP_INIT=0, **{"OGS_OP(a,b)": "a+=b"})
        self.gather_kernel = build(root / "libs/ogs/okl/ogsKernels.okl", "gather", defines=ogs)
        if problem.solve:
            linalg = dict(platform, p_blockSize=LINALG_BLOCK)
            core = root / "libs/core/okl"
            self.k = {name: build(core / file, name, defines=linalg)
                      for file, name in (("linAlgSet.okl", "set"), ("linAlgAXPY.okl", "axpy"),
                                         ("linAlgNorm2.okl", "norm2_1"),
                                         ("linAlgNorm2.okl", "norm2_2"),
                                         ("linAlgInnerProd.okl", "innerProd_1"),
                                         ("linAlgInnerProd.okl", "innerProd_2"))}
            cg = dict(platform, p_blockSize=CG_BLOCK)
            for name in ("updateCG_1", "updateCG_2"):
                self.k[name] = build(core / "linearSolverUpdateCG.okl", name, defines=cg)

    def _element_lists(self, layer: int) -> dict[str, np.ndarray]:
        """benchParanumal's element lists: the elements with a node shared with another rank
        (the slab's bottom and top layers where a rank is beside it), and the others
        (``localFirst``, ``localSecond``: in two halves); ``elementList`` is every element.
        For the overlapped operator on several ranks, ``exchanged``: the bottom layer where a
        rank is below, the only elements that read a received value (the plane below is
        the halo) or whose sums are sent (to the halo's owner); and ``interior``: all
        others, the top layer included (its shared plane is this rank's own: it sends that
        plane's values and adds the sums it receives, but neither waits for its elements)."""
        E, part = self.E, self.part
        touching = np.zeros(E, dtype=bool)
        if part.below is not None:
            touching[:layer] = True
        exchanged = touching.copy()
        if part.above is not None:
            touching[E - layer:] = True
        local = np.flatnonzero(~touching).astype(np.int32)
        half = len(local) // 2
        return {"elementList": np.arange(E, dtype=np.int32),
                "localFirst": local[:half], "localSecond": local[half:],
                "exchanged": np.flatnonzero(exchanged).astype(np.int32),
                "interior": np.flatnonzero(~exchanged).astype(np.int32)}

    @property
    def ndofs(self) -> int:
        """Rows of this rank's CG vectors: the nodes it owns."""
        return self.num.Ngather

    @property
    def nall(self) -> int:
        """Rows of a vector the operator reads: owned, then the halo."""
        return self.num.Nall

    @property
    def nlocal(self) -> int:
        return self.E * self.ref.Np * self.problem.nfields

    # -- the kernels, as benchParanumal calls them -----------------------------------------
    def operator_args(self) -> list:
        o, lam = self.o, self.problem.lam
        n = self.problem.number
        if n <= 2:
            return [o["cubwJ"], o["cubInterp"], o["MM"]]
        if n <= 4:
            return [o["cubwJ"], o["cubggeo"], o["cubD"], o["cubInterp"], o["empty"],
                    o["empty"], o["MM"], lam]
        return [o["wJ"], o["empty"], o["ggeo"], o["gllw"], o["D"], o["empty"], o["MM"], lam]

    def apply(self, elements: str, q, Aq, stream: Any = None) -> None:
        """The operator kernel on one element list (nothing if the list is empty), on
        ``stream`` (default: the device's current one)."""
        count = len(self.lists[elements])
        if count:
            extra = {"stream": stream} if stream is not None else {}
            self.operator_kernel(count, self.o[elements], self.o["GlobalToLocal"],
                                 *self.operator_args(), q, Aq, **extra)

    def gather(self, local, gathered) -> None:
        """``gathered[row] = sum of local over the row's members`` for the owned rows (ogs
        Gather, Add, Trans), this rank's part only."""
        self.gather_kernel(len(self.num.block_starts) - 1, 1, self.o["blockStarts"],
                           self.o["rowStarts"], self.o["colIds"], local, gathered)

    def gather_received(self, local, gathered) -> None:
        """``gather`` and ``add_sums`` in one launch: ``local`` holds the rank above's
        partial sums of the top plane after its ``nlocal`` entries (``received``)."""
        if not self.num.Nsend:
            self.gather(local, gathered)
            return
        o = self.o
        self.gather_kernel(self.received_blocks, 1, o["receivedBlockStarts"],
                           o["receivedRowStarts"], o["receivedColIds"], local, gathered)

    def received(self, local) -> Any:
        """Where the rank above's partial sums are received for ``gather_received``: the
        entries after the first ``nlocal`` of a local vector of ``nlocal + Nsend``."""
        return local[self.nlocal:self.nlocal + self.num.Nsend] if self.num.Nsend else None

    def gather_halo(self, local, stream: Any = None) -> None:
        """This rank's partial sums of the halo rows, into ``down`` (on ``stream``: default
        the device's current one)."""
        if self.num.Nhalo:
            extra = {"stream": stream} if stream is not None else {}
            self.gather_kernel(len(self.num.halo_block_starts) - 1, 1,
                               self.o["haloBlockStarts"], self.o["haloRowStarts"],
                               self.o["haloColIds"], local, self.down, **extra)

    def sums_exchange(self, comm: Any, stream: Any = None, into: Any = None) -> Any:
        """Start sending the halo rows' partial sums to their owner (below) and receiving
        the partial sums of this rank's top plane (from above) into ``into`` (default
        ``up``)."""
        part = self.part
        into = self.up if into is None else into
        sends = [(part.below, self.down)] if self.down is not None else []
        recvs = [(part.above, into)] if into is not None else []
        return comm.exchange(sends=sends, recvs=recvs, stream=stream)

    def add_sums(self, gathered) -> None:
        """The rank above's partial sums added to the top plane, rows ``0 .. Nsend-1`` (a
        vector's start: no offset into it reaches a kernel)."""
        if self.up is not None:
            self.k["axpy"](self.num.Nsend, 1.0, self.up, 1.0, gathered)

    def values_exchange(self, comm: Any, q, stream: Any = None) -> Any:
        """Start sending the top plane's values of ``q`` up (this rank owns them) and
        receiving the bottom plane's from below into ``q``'s halo rows."""
        kept = self._planes.get(id(q))
        if kept is None:  # the views made once per vector (CG's p: every iteration)
            num, part = self.num, self.part
            kept = self._planes[id(q)] = (
                q, [(part.above, q[0:num.Nsend])] if num.Nsend else [],
                [(part.below, q[num.Ngather:num.Nall])] if num.Nhalo else [])
        _, sends, recvs = kept
        return comm.exchange(sends=sends, recvs=recvs, stream=stream)

    def assemble(self, local, gathered, comm: Any = None) -> None:
        """The whole gather: this rank's sums of its owned rows plus the sums the rank above
        holds of the shared plane (no overlap: for the right-hand side)."""
        comm = comm or self.comm
        self.gather_halo(local)
        handle = self.sums_exchange(comm)
        self.gather(local, gathered)
        handle.wait()
        self.add_sums(gathered)

    def rhs(self, local) -> None:
        o = self.o
        self.rhs_kernel(self.E, o["wJ"], o["gllw"], o["MM"], o["x"], o["y"], o["z"],
                        self.problem.lam, local)


# -- BK --------------------------------------------------------------------------------------

def run_bk(s: Setup, tests: int = 50, warmup: int = 5) -> dict:
    dev = s.dev
    q = dev.zeros(s.ndofs, np.float64)
    Aq = dev.zeros(s.nlocal, np.float64)
    s.rhs(Aq)
    s.gather(Aq, q)
    for _ in range(warmup):
        s.apply("elementList", q, Aq)
    dev.finish()
    start = time.perf_counter()
    for _ in range(tests):
        s.apply("elementList", q, Aq)
    dev.finish()
    elapsed = (time.perf_counter() - start) / tests
    p, N = s.problem, s.degree
    nbytes = p.operator_bytes(N, s.ndofs, s.E)
    nflops = p.operator_flops(N, s.E)
    return {"problem": p.name, "N": N, "DOFs": s.ndofs, "elapsed": elapsed,
            "GDOF/s": s.ndofs / elapsed / 1e9, "GB/s": nbytes / (1e9 * elapsed),
            "GFLOP/s": nflops / (1e9 * elapsed), "q": q, "Aq": Aq}


def bk_line(r: dict) -> str:
    e = r["elapsed"]
    return (f"{r['problem']}: N={r['N']:2d}, DOFs={r['DOFs']}, elapsed={e:4.4f}, "
            f"time per DOF={e / r['DOFs']:1.2e}, avg BW (GB/s)={r['GB/s']:6.1f}, "
            f"avg GFLOPs={r['GFLOP/s']:6.1f}, DOFs/ranks*time={r['DOFs'] / e:1.2e}, "
            "Element=Hex ")


# -- BP --------------------------------------------------------------------------------------

class CG:
    """benchParanumal's linearSolverCG: plain CG with its kernels and its order of work, on
    this rank's owned rows (``s.ndofs``); the dots summed over the ranks (``comm``: the
    setup's, or ranks.Silent for the compute-only timing)."""

    def __init__(self, s: Setup, comm: Any = None, sums: str = "host",
                 graphs: str = "auto") -> None:
        if sums not in SUMS:
            raise ValueError(f"sums={sums!r}: one of {', '.join(SUMS)}")
        if graphs not in GRAPHS:
            raise ValueError(f"graphs={graphs!r}: one of {', '.join(GRAPHS)}")
        self.s = s
        self.comm = comm or s.comm
        self.sums = sums
        # resident sums on cuda, with exchanges and sums that only queue work (NCCL, the
        # peers' all-reduce; not the MPI modes, whose host waits): each iteration after the
        # first is one launch of a CUDA graph (okl.Graph) that captured it
        self.graphs = (graphs == "auto" and sums == "resident" and s.dev.mode == "cuda" and
                       getattr(self.comm, "mode", "none") in ("none", "nccl"))
        # host sums: benchParanumal's own order (linAlg's innerProd and CG's update read the
        # rank's sum back, then MPI_Allreduce on the host).  The value goes to the host
        # anyway, and a host all-reduce of one double (2-5 us on one node) costs less than a
        # device one before the read (NCCL: 13-22 us on 4 H200s).
        self.world = getattr(self.comm, "comm", None) if self.comm.size > 1 else None
        self.value = np.zeros(1)
        dev = s.dev
        self.p = dev.zeros(s.nall, np.float64)
        self.Ap = dev.zeros(s.nall, np.float64)
        # the local vector, then (several ranks) the rank above's sums of the top plane
        self.AqL = dev.zeros(s.nlocal + s.num.Nsend, np.float64)
        self.received = s.received(self.AqL) if self.comm.size > 1 else None
        self.tmp = dev.zeros(CG_BLOCK, np.float64)
        self.scratch = dev.zeros(LINALG_BLOCK, np.float64)
        # the first entries, read back each iteration (made once, as the C++ code keeps its
        # pinned h_scratch)
        self.tmp0, self.scratch0 = self.tmp[0:1], self.scratch[0:1]
        # linAlg's and CG's blocks of partial sums
        n = s.ndofs
        self.lblocks = min(math.ceil(n / LINALG_BLOCK), LINALG_BLOCK)
        self.cblocks = min(math.ceil(n / CG_BLOCK), CG_BLOCK)
        # resident sums, by the second kernel of each dot: its partial sums, their first
        # entry, the blocks that hold them, and (several ranks) a value of its own for their
        # sum over the ranks (_sum)
        dots = dev.zeros(2, np.float64)
        partials = self.scratch[0:self.lblocks]
        self._dot_sums = {
            "norm2_2": (self.scratch, self.scratch0, partials, dots[0:1]),
            "innerProd_2": (self.scratch, self.scratch0, partials, dots[0:1]),
            "updateCG_2": (self.tmp, self.tmp0, self.tmp[0:self.cblocks], dots[1:2])}
        # several ranks: kernels on a stream of their own and exchanges on another (of high
        # priority, so that its small kernels do not queue behind an operator kernel).  Not
        # the device's default stream: on cuda that is the legacy null stream, which waits
        # for every other stream's work and makes them wait for its own -- no overlap at all
        # (measured on 4 H200s: 0.40-0.71 ms exposed per 0.45 ms iteration).
        several = self.comm.size > 1
        # (a graph is captured from a stream of one's own too)
        self.compute = dev.stream() if several or self.graphs else dev.current_stream
        self.halo = dev.stream(priority="high") if several else self.compute
        self.queued = dev.mode in ("cuda", "hip", "opencl")
        if sums == "resident":  # okl's kernels that read CG's scalars from the device
            self.resident = {name: s.build(RESIDENT, name,
                                           defines=dict(s.platform, p_blockSize=CG_BLOCK))
                             for name in ("residentStart", "residentDirection",
                                          "residentUpdateCG_1", "residentSolution",
                                          "residentSave", "residentKeep")}
            # rd, pAp and the iteration's number: grown to the longest solve so far, and the
            # graph of an iteration on them, by the x and r it solved for (_iteration_graph)
            self._scalars: tuple = ()
            self._graph: tuple = ()

    def operator(self, q, Aq) -> None:
        """On one rank, bp5Operator.cpp's order: half the elements, the other half, the
        gather.  On several, its work with more of it overlapped: the exchange stream starts
        the halo of ``q``, applies the operator to the elements that read it (the bottom
        layer, ``exchanged``) once it has arrived, gathers their partial sums of the halo
        rows and starts sending them, while the compute stream applies it to every other
        element (one launch, where bp5Operator.cpp splits the elements away from the ranks'
        planes in two around the halo's wait, and applies both layers beside them after
        it); then, once those elements are done and the rank above's sums have arrived in
        ``AqL``'s tail, the gather with each received sum as the last member of its row
        (one launch where bp5Operator.cpp gathers, then adds the sums).  The element lists
        write disjoint parts of ``AqL`` (each element its own nodes), and the gather adds in
        the same order: the same bits as bp5Operator.cpp's order.  The top layer is in
        the compute stream's launch: nothing it reads or writes waits for a message, and a
        rank between two others then puts one layer on the exchange stream's path, not
        two."""
        s, comm, AqL = self.s, self.comm, self.AqL
        if comm.size == 1:
            s.apply("localFirst", q, AqL)
            s.apply("localSecond", q, AqL)
            s.gather(AqL, Aq)
            return
        touched: list = []

        def halo(stream: Any) -> Any:
            self._join(s.values_exchange(comm, q, stream), stream)
            s.apply("exchanged", q, AqL, stream)
            touched.append(stream.record())
            s.gather_halo(AqL, stream)
            return s.sums_exchange(comm, stream, into=self.received)

        sums = self._overlapped(halo, lambda: s.apply("interior", q, AqL))
        self.compute.wait(touched[0])
        sums.wait()
        # the exchange stream's work joined (its last: the sums' arrival; a captured
        # iteration must end with every stream it forked joined back)
        self.compute.wait(self.halo.record())
        s.gather_received(AqL, Aq)

    def _overlapped(self, exchange: Callable[[Any], Any], work: Callable[[], None]) -> Any:
        """``exchange`` on the halo stream, from the compute stream's present point, and
        ``work`` on the compute stream meanwhile.  Kernels that launch asynchronously (GPUs,
        OpenCL) are queued first, so that a transport which makes the host wait for the
        buffers' producers (MPI modes) waits while the device computes; on CPU modes, where a
        launch returns when the kernel is done, the messages are started first."""
        ready = self.compute.record()
        if self.queued:
            work()
        self.halo.wait(ready)
        handle = exchange(self.halo)
        if not self.queued:
            work()
        return handle

    def _join(self, handle: Any, stream: Any = None) -> None:
        """The exchange finished; ``stream``'s (default: the compute stream's) later work
        sees what it received."""
        handle.wait()
        if handle.event is not None:
            (stream or self.compute).wait(handle.event)

    def _reduce(self, first: str, second: str, *vectors) -> float:
        k, n = self.s.k, self.s.ndofs
        k[first](self.lblocks, n, *vectors, self.scratch)
        k[second](self.lblocks, self.scratch)
        return self._global(self.scratch0)

    def _global(self, partial) -> float:
        """The sum over the ranks of ``partial`` (a one-entry view of this rank's sum), on
        the host.  ``sums`` "host": read back, then summed over the ranks by MPI on the host
        (nothing with ranks.Silent, which has no ``comm``); "device": summed on the device
        by the communicator, then read back."""
        if self.sums == "device":
            self.comm.allreduce(partial)
            return float(partial.get()[0])
        self.value[0] = partial.get()[0]
        if self.world is not None:
            from mpi4py import MPI
            self.world.Allreduce(MPI.IN_PLACE, self.value)
        return float(self.value[0])

    def solve(self, x, r, maxit: int, history: list[float] | None = None,
              coefficients: list[tuple[float, float]] | None = None) -> int:
        """CG from ``x`` with residual ``r``; every kernel, copy and read on the compute
        stream (the device's current stream for the call).  ``history`` receives the
        residual norm of every iteration, ``coefficients`` its (alpha, beta)."""
        with self.compute:
            if self.sums == "resident":
                return self._solve_resident(x, r, maxit, history, coefficients)
            return self._solve(x, r, maxit, history, coefficients)

    def _solve(self, x, r, maxit: int, history: list[float] | None,
               coefficients: list[tuple[float, float]] | None) -> int:
        k, n = self.s.k, self.s.ndofs
        self.operator(x, self.Ap)
        k["axpy"](n, -1.0, self.Ap, 1.0, r)
        rdotr = math.sqrt(self._reduce("norm2_1", "norm2_2", r)) ** 2
        rdotr1 = rdotr2 = 0.0
        it = 0
        for it in range(maxit):
            if rdotr <= 0.0:
                break
            rdotr2, rdotr1 = rdotr1, rdotr
            beta = 0.0 if it == 0 else _divide(rdotr1, rdotr2)
            k["axpy"](n, 1.0, r, beta, self.p)
            self.operator(self.p, self.Ap)
            pAp = self._reduce("innerProd_1", "innerProd_2", self.p, self.Ap)
            alpha = _divide(rdotr1, pAp)
            if coefficients is not None:
                coefficients.append((alpha, beta))
            k["updateCG_1"](n, self.cblocks, self.Ap, alpha, r, self.tmp)
            k["updateCG_2"](self.cblocks, self.tmp)
            rdotr = self._global(self.tmp0)
            k["axpy"](n, alpha, self.p, 1.0, x)
            if history is not None:
                history.append(math.sqrt(max(rdotr, 0.0)))
        else:
            it = maxit
        return it


    def _solve_resident(self, x, r, maxit: int, history: list[float] | None,
                        coefficients: list[tuple[float, float]] | None) -> int:
        """The same iterations with nothing read back until the end (``sums`` "resident"):
        alpha and beta are computed where they are used, from the dots the device keeps
        (rd, pAp: resident.okl), the dots are summed over the ranks on the device
        (Communicator.allreduce: through the other GPUs' memory on one host), and the host
        queues the whole solve.  The same arithmetic as ``_solve``: each scalar is the same
        IEEE division of the same two numbers, and each update the same expression.  The
        iteration count, residual norms and coefficients are read from rd and pAp at the
        end."""
        k, n = self.s.k, self.s.ndofs
        self.operator(x, self.Ap)
        k["axpy"](n, -1.0, self.Ap, 1.0, r)
        rd, pAp, number = self._resident_scalars(maxit)
        k["norm2_1"](self.lblocks, n, r, self.scratch)
        self.resident["residentStart"](number, self._sum("norm2_2"), rd)
        first = 0
        if maxit > 0 and not (self.graphs and self._captured(x, r)):
            self._iteration(x, r)  # the first on its own: kernels' and messages' first use
            first = 1
        if self.graphs and maxit > first:
            graph = self._iteration_graph(x, r)
            for _ in range(first, maxit):
                graph.launch(self.compute)
        else:
            for _ in range(first, maxit):
                self._iteration(x, r)
        rds, pAps = rd[0:maxit + 1].get(), pAp[0:max(maxit, 1)].get()
        done = next((it for it in range(maxit) if rds[it] <= 0.0), maxit)
        for it in range(done):
            if coefficients is not None:
                beta = 0.0 if it == 0 else _divide(rds[it], rds[it - 1])
                coefficients.append((_divide(rds[it], pAps[it]), beta))
            if history is not None:
                history.append(math.sqrt(max(float(rds[it + 1]), 0.0)))
        return done

    def _resident_scalars(self, maxit: int) -> tuple:
        """rd (maxit + 1 entries at least), pAp (maxit) and the iteration's number (one int),
        made anew only for a longer solve than any before (which also drops the graph: it
        holds their addresses)."""
        if not self._scalars or len(self._scalars[0]) < maxit + 1:
            dev = self.s.dev
            self._scalars = (dev.zeros(maxit + 1, np.float64),
                             dev.zeros(max(maxit, 1), np.float64), dev.zeros(1, np.int32))
            self._graph = ()
        return self._scalars

    def _iteration(self, x, r) -> None:
        """One resident iteration, queued: its number, alpha and beta read on the device."""
        k, n, R = self.s.k, self.s.ndofs, self.resident
        rd, pAp, number = self._scalars
        R["residentDirection"](n, number, 1.0, rd, r, self.p)
        self.operator(self.p, self.Ap)
        k["innerProd_1"](self.lblocks, n, self.p, self.Ap, self.scratch)
        pAp_sum = self._sum("innerProd_2")
        R["residentSave"](number, pAp_sum, pAp)
        R["residentUpdateCG_1"](n, self.cblocks, number, rd, pAp, self.Ap, r, self.tmp)
        if self.comm.size > 1:
            # r.r's sum over the ranks beside x's update, which does not need it: on the
            # exchange stream, whose priority lets the all-reduce's one block start before
            # the update's blocks fill the GPU (at the same priority it would wait for them)
            self.halo.wait(self.compute.record())
            rdotr_sum = self._sum("updateCG_2", self.halo)
            R["residentSolution"](n, number, 1.0, rd, pAp, self.p, x)
            self.compute.wait(self.halo.record())
        else:
            rdotr_sum = self._sum("updateCG_2")
            R["residentSolution"](n, number, 1.0, rd, pAp, self.p, x)
        R["residentKeep"](number, rdotr_sum, rd)  # last: it advances the number

    def _sum(self, second: str, stream: Any = None) -> Any:
        """The sum over the ranks of a dot's per-block partial sums, on the
        device; where it is (a one-value Memory).  One rank: linAlg's ``second`` kernel adds
        them into their first entry.  Several: one all-reduce folds them and sums over the
        ranks into a value of its own (``Communicator.allreduce(out=)``: through the other
        GPUs' memory one kernel, where ``second`` and an all-reduce would be two launches on
        the iteration's critical path, ~3 us each in a graph)."""
        whole, first, partials, out = self._dot_sums[second]
        if self.comm.size == 1:
            self.s.k[second](len(partials), whole)
            return first
        self.comm.allreduce(partials, out=out, stream=stream or self.compute)
        return out

    def _captured(self, x, r) -> bool:
        """Whether the kept graph is of an iteration on ``x``, ``r`` and today's scalars."""
        kept = self._graph
        return bool(kept) and kept[0] is x and kept[1] is r and kept[2] is self._scalars

    def _iteration_graph(self, x, r) -> Any:
        """An iteration captured from the compute stream (okl.Graph), made once per x, r and
        scalars: every iteration queues the same kernels with the same arguments (its
        number is on the device), the exchanges and sums too (NCCL's calls and the peers'
        all-reduce are captured as they are queued), so one graph replays any of them."""
        if self._captured(x, r):
            return self._graph[3]
        with self.compute.capture() as graph:
            self._iteration(x, r)
        self._graph = (x, r, self._scalars, graph)
        return graph


def _divide(a: float, b: float) -> float:
    """``a / b`` as C computes it in doubles: a zero ``b`` (CG past the point where rounding
    has emptied its residual) gives an infinity or a NaN instead of stopping the solve."""
    if b != 0.0:
        return a / b
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(a) / np.float64(b))


def bp_system(s: Setup):
    """A BP's solution ``x`` and right-hand side ``r``, and ``start()``, which sets ``x`` to 0
    and ``r`` to the gathered right-hand side (before each solve)."""
    x = s.dev.zeros(s.nall, np.float64)
    r = s.dev.zeros(s.nall, np.float64)
    rL = s.dev.zeros(s.nlocal, np.float64)

    def start() -> None:
        s.k["set"](s.nall, 0.0, x)
        s.rhs(rL)
        s.assemble(rL, r)

    return x, r, start


@contextlib.contextmanager
def _collector_off() -> Any:
    """Python's cyclic garbage collector off for a timed solve (as ``timeit`` turns it off),
    after one collection.  A collection stops one rank's host for up to a few hundred
    microseconds; on several ranks every other rank then waits for it at the next sum, so
    collections that one rank would hardly notice cost each rank all of them."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _finish(s: Setup, world: Any) -> float:
    """benchParanumal's GlobalPlatformTime: the device finished, then every rank."""
    s.dev.finish()
    if world is not None:
        world.Barrier()
    return time.perf_counter()


def run_bp(s: Setup, iterations: int = 100, warmup_iterations: int = 1000,
           world: Any = None, overlap: bool = False, sums: str = "host",
           graphs: str = "auto") -> dict:
    """The untimed solve, then the timed one (as bp5Run.cpp).  ``world``: the mpi4py
    communicator of a multi-rank run (its barriers bound the timed part; sums over it give the
    global counts).  ``overlap``: time the communication too -- the same solve with none
    (ranks.Silent: the compute alone; the exposed communication is the difference) and the
    exchanges and reductions of as many iterations alone.  ``sums``: where CG sums its
    dots over the ranks, ``graphs`` whether its iterations may be CUDA graphs (CG)."""
    n = s.ndofs
    cg = CG(s, sums=sums, graphs=graphs)
    x, r, start = bp_system(s)
    start()
    if warmup_iterations:
        cg.solve(x, r, warmup_iterations)
    start()
    history: list[float] = []
    with _collector_off():
        t0 = _finish(s, world)
        done = cg.solve(x, r, iterations, history)
        elapsed = _finish(s, world) - t0
    p, N = s.problem, s.degree
    total = world.allreduce(n) if world is not None else n
    size = s.part.size
    out = {"problem": p.name, "N": N, "DOFs": total, "ranks": size, "elapsed": elapsed,
           "iterations": done, "residual": history[-1] if history else float("nan"),
           "x": x, "history": history, "exchange": s.comm.mode,
           "exchange_reason": s.comm.reason,
           "sums": sums if size > 1 or sums == "resident" else "none",
           "graphs": cg.graphs}
    out.update(_rates(s, total, done, elapsed))
    if overlap:
        out.update(_communication_times(s, cg, iterations, world, elapsed))
    return out


def _rates(s: Setup, ndofs: int, iterations: int, elapsed: float) -> dict:
    """benchParanumal's rates (bp*Run.cpp: global counts over the elements of every rank)."""
    p, N = s.problem, s.degree
    elements = s.mesh.nx * s.mesh.ny * s.part.NZ
    nbytes = p.solve_bytes(N, ndofs, elements, iterations)
    nflops = p.solve_flops(N, ndofs, elements, iterations)
    return {"GDOF/s": ndofs * iterations / elapsed / 1e9, "GB/s": nbytes / (1e9 * elapsed),
            "GFLOP/s": nflops / (1e9 * elapsed)}


def _communication_times(s: Setup, cg: CG, iterations: int, world: Any,
                         elapsed: float) -> dict:
    """Seconds per CG iteration: the compute alone (the solve with ranks.Silent), the
    communication alone (per iteration: the operator's two exchanges and CG's two sums),
    and the exposed part (the real solve's time less the compute's, at least 0)."""
    quiet = CG(s, ranks.Silent(s.comm), sums=cg.sums, graphs="auto" if cg.graphs else "off")
    x, r, start = bp_system(s)  # its own vectors: the real solve's answer stays
    start()
    quiet.solve(x, r, iterations)  # first use of its streams, kernels and graph: untimed
    start()
    with _collector_off():
        t0 = _finish(s, world)
        quiet.solve(x, r, iterations)
        compute = _finish(s, world) - t0
    comm = s.comm
    with _collector_off():
        t0 = _finish(s, world)
        for _ in range(iterations):
            s.values_exchange(comm, cg.p).wait()
            s.sums_exchange(comm).wait()
            if cg.sums == "resident":  # queued: the host waits for none of them
                comm.allreduce(cg.scratch0)
                comm.allreduce(cg.tmp0)
            else:
                cg._global(cg.scratch0)
                cg._global(cg.tmp0)
        alone = _finish(s, world) - t0
    per = max(iterations, 1)
    return {"compute_seconds_per_iteration": compute / per,
            "exchange_seconds_per_iteration": alone / per,
            "exposed_seconds_per_iteration": max(0.0, elapsed - compute) / per}


def bp_line(r: dict) -> str:
    e, n, it = r["elapsed"], r["DOFs"], r["iterations"]
    size = r.get("ranks", 1)
    return (f"{r['problem']}: N={r['N']:2d}, DOFs={n}, elapsed={e:4.4f}, iterations={it}, "
            f"time per DOF={e / n:1.2e}, avg BW (GB/s)={r['GB/s']:6.1f}, "
            f"avg GFLOPs={r['GFLOP/s']:6.1f}, "
            f"DOFs*iterations/ranks*time={n * it / (size * e):1.2e}, "
            f"Element=Hex  (final residual {r['residual']:.12e})")


def scaling_record(r: dict, s: Setup) -> dict:
    """The run's JSON line: what a scaling study compares (benchmarks.benchparanumal_scaling
    reads it)."""
    size, it, e = r["ranks"], r["iterations"], r["elapsed"]
    per = max(it, 1)
    return {"problem": r["problem"], "N": r["N"], "ranks": size, "DOFs": r["DOFs"],
            "DOFs_per_rank": r["DOFs"] / size, "iterations": it, "seconds": e,
            "DOFs*iterations/(ranks*time)": r["DOFs"] * it / (size * e),
            "exchange": r["exchange"], "exchange_reason": r["exchange_reason"],
            "sums": r["sums"], "graphs": r["graphs"], "seconds_per_iteration": e / per,
            "compute_seconds_per_iteration": r.get("compute_seconds_per_iteration", e / per),
            "exchange_seconds_per_iteration": r.get("exchange_seconds_per_iteration", 0.0),
            "exposed_seconds_per_iteration": r.get("exposed_seconds_per_iteration", 0.0),
            "partition": f"slabs along z: {s.mesh.nx}x{s.mesh.ny}x{s.part.NZ} elements, "
                         f"{s.part.NZ // size}-{-(-s.part.NZ // size)} layers per rank",
            "residual": r["residual"]}


def check_against_one_rank(s: Setup, r: dict, world: Any, root: Path, mode: str,
                           rtol: float | None) -> dict | None:
    """On rank 0: the same global mesh solved by one rank (this device, the same kernels, no
    untimed solve), compared with the ranks' answer node by node (by global key).  Every
    rank sends its owned rows; only rank 0 returns the verdict."""
    n = s.ndofs
    mine = (s.num.row_keys[:n], r["x"][0:n].get())
    parts = world.gather(mine, root=0) if world is not None else [mine]
    if s.part.rank != 0:
        return None
    keys = np.concatenate([k for k, _ in parts])
    values = np.concatenate([v for _, v in parts])
    one = Setup(s.dev, root, s.problem, s.degree, s.mesh.nx, s.mesh.ny, s.part.NZ, mode)
    cg = CG(one)
    x, rhs, start = bp_system(one)
    start()
    history: list[float] = []
    coefficients: list[tuple[float, float]] = []
    done = cg.solve(x, rhs, r["iterations"], history, coefficients)
    kappa = lanczos_condition(coefficients)
    tol = rtol if rtol is not None else check_tolerance(kappa)
    want_keys = one.num.row_keys[:one.ndofs]
    if len(keys) != len(want_keys) or not np.array_equal(np.sort(keys), np.sort(want_keys)):
        return {"check": False, "check_why": "the ranks' nodes are not the one-rank mesh's"}
    got = values[np.argsort(keys)]
    want = x[0:one.ndofs].get()[np.argsort(want_keys)]
    rel = float(np.linalg.norm(got - want) / max(np.linalg.norm(want), np.finfo(float).tiny))
    drift = history_difference(r["history"], history)
    ok = done == r["iterations"] and rel <= tol and drift <= HISTORY_RTOL
    return {"check": bool(ok), "check_relative_difference": rel,
            "check_history_relative_difference": drift, "check_one_rank_iterations": done,
            "check_rtol": tol, "check_condition_estimate": kappa,
            "check_one_rank_history": history}


#: --check's margin for the answer: the ranks' answer may differ from one rank's by
#: CHECK_FACTOR * eps * kappa (kappa: the Lanczos estimate of the operator's condition number
#: from one rank's CG coefficients).  Why kappa: the two solves differ only in the order of
#: the additions in the dot products (owned rows summed per rank, then over the ranks), so
#: alpha and beta differ in their last bits and CG carries that into x amplified by up to
#: kappa, as any solve of A x = b would.  Measured: 2 openmp ranks, degree 7, 0.66 M DOFs
#: (kappa ~ 3.7e3): 6.2e-14; 2 and 4 H200s, degree 7, 8.2 and 16.5 M DOFs (kappa ~ 1.9e4,
#: 7.2e4): 1.4e-14 and 1.4e-9 (the bounds: 4.2e-8, 1.6e-7).
CHECK_FACTOR = 1e4

#: --check's margin for the path: the residual norms of the ranks' CG and of one rank's agree
#: to HISTORY_RTOL times the first residual over the first HISTORY_ITERATIONS iterations
#: (relative to the first, not to each: once CG has converged its residual is rounding, and
#: two runs' part by percents -- 2 serial ranks, degree 3, 8000 DOFs: 1e-15 of the start at
#: iteration 10, 2e-2 apart there, 2e-17 of the start).  A wrong dot product or
#: halo shows there at once (a dot 1e-6 off: 5e-7 within a few iterations); rounding does
#: not: the runs agree to about 1e-15 until CG's rounding starts to grow exponentially, at
#: iteration 26-30 in every run measured -- 2 openmp ranks, degree 7, 0.66 M DOFs (8e-16
#: through 25, 7e-13 at 29, 4e-5 at 37, answers 6e-14 apart); 4 H200s, degree 7, 4.5 M DOFs
#: (1e-15 through 25, 3e-10 at 30, 9e-7 at 35, answers 7e-10 apart; NCCL's and MPI's
#: all-reduces, which add the four ranks' sums in different orders, part the same way, while
#: two NCCL runs agree bitwise).  A final answer alone would not see a wrong dot product: CG
#: converges anyway, by another path.
HISTORY_RTOL = 1e-10
HISTORY_ITERATIONS = 20


def lanczos_condition(coefficients: list[tuple[float, float]]) -> float:
    """kappa of the operator as CG's own Lanczos tridiagonal sees it: T[j][j] = 1/alpha_j +
    beta_j/alpha_(j-1), T[j][j+1] = sqrt(beta_(j+1))/alpha_j (beta_0 = 0).  Its extreme
    eigenvalues approach the operator's from inside, so this never overstates kappa.  1.0
    when CG took no step or a coefficient is not finite and positive."""
    alphas = np.array([a for a, _ in coefficients], dtype=float)
    betas = np.array([b for _, b in coefficients], dtype=float)
    if alphas.size == 0 or not (np.all(np.isfinite(alphas)) and np.all(alphas > 0)
                                and np.all(np.isfinite(betas)) and np.all(betas >= 0)):
        return 1.0
    diag = 1.0 / alphas
    diag[1:] += betas[1:] / alphas[:-1]
    off = np.sqrt(betas[1:]) / alphas[:-1]
    T = np.diag(diag) + np.diag(off, 1) + np.diag(off, -1)
    eig = np.linalg.eigvalsh(T)
    return float(eig[-1] / eig[0]) if eig[0] > 0 else 1.0


def check_tolerance(kappa: float) -> float:
    """CHECK_FACTOR eps kappa: how far the ranks' answer may be from one rank's."""
    return CHECK_FACTOR * float(np.finfo(np.float64).eps) * max(kappa, 1.0)


def history_difference(got: list[float], want: list[float]) -> float:
    """The largest difference of two residual histories over their first HISTORY_ITERATIONS
    iterations, relative to the first residual (inf if their lengths differ)."""
    if len(got) != len(want):
        return math.inf
    if not want:
        return 0.0
    g, w = np.asarray(got[:HISTORY_ITERATIONS]), np.asarray(want[:HISTORY_ITERATIONS])
    scale = w[0] if w[0] > 0 else 1.0
    return float(np.max(np.abs(g - w)) / scale)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernels", type=Path, default=STANDINS,
                    help="a benchParanumal checkout (default: okl's stand-ins, BK5/BP5)")
    ap.add_argument("--problem", default="BK5")
    ap.add_argument("--element", default="Hex", choices=["Hex"])
    ap.add_argument("--degree", type=int, default=4)
    ap.add_argument("--ndofs", type=float, default=4e6,
                    help="DOFs of the whole box (split over the ranks: strong scaling)")
    ap.add_argument("--ndofs-per-rank", type=float,
                    help="weak scaling: each rank a box of this many DOFs, the boxes stacked "
                         "along z (the whole box nx x nx x ranks*nx elements)")
    ap.add_argument("--nx", type=int, help="elements per direction (default: from --ndofs, or "
                                           "--ndofs-per-rank: then per rank)")
    ap.add_argument("--mode", default="serial")
    ap.add_argument("--iterations", type=int, default=100, help="BP: timed CG iterations")
    ap.add_argument("--warmup-iterations", type=int, default=1000,
                    help="BP: iterations of the untimed solve before it")
    ap.add_argument("--exchange", default="auto",
                    help="several ranks: okl.mpi.Communicator's mode (auto, nccl, mpi-device, "
                         "host)")
    ap.add_argument("--sums", choices=SUMS, default="host",
                    help="several ranks: CG's dot products summed over the ranks on the host "
                         "after the read-back (benchParanumal's order; default) or on the "
                         "device by the communicator before it; resident (any number of "
                         "ranks): summed on the device and CG's scalars kept there, nothing "
                         "read back until the solve ends")
    ap.add_argument("--graphs", choices=GRAPHS, default="auto",
                    help="--sums resident on cuda: each CG iteration after the first one "
                         "launch of a CUDA graph that captured it (auto, with NCCL or no "
                         "exchange; default) or queued kernel by kernel (off)")
    ap.add_argument("--check", action="store_true",
                    help="BP: compare with one rank's solve of the same box (on rank 0); "
                         "exit 1 if iterations or answer differ")
    ap.add_argument("--check-rtol", type=float, default=None,
                    help="--check: the largest relative difference of the answers (default: "
                         "1e4 eps kappa, kappa from one rank's CG)")
    ap.add_argument("--json", type=Path, help="write the result here too")
    args = ap.parse_args(argv)
    problem = parse(args.problem)
    if not 1 <= args.degree <= 8:
        ap.error("--degree must be 1..8")
    if args.nx is not None and args.nx < 1:
        ap.error("--nx must be at least 1")
    for name in ("ndofs", "ndofs_per_rank"):
        value = getattr(args, name)
        if value is not None and not value > 0:
            ap.error(f"--{name.replace('_', '-')} must be a positive number of DOFs")
    try:
        world = ranks.world()
    except (SystemExit, okl.OKLError) as e:
        print(f"run.py: error: {e}", file=sys.stderr)
        return 1
    size = world.Get_size() if world is not None else 1
    rank = world.Get_rank() if world is not None else 0

    def refuse(message: str) -> NoReturn:
        """An error every rank finds alike: said once, by rank 0."""
        if rank == 0:
            ap.error(message)
        sys.exit(2)

    if size > 1 and not problem.solve:
        refuse(f"{problem.name} times one operator on one rank; several ranks run the BPs")
    if args.ndofs_per_rank is not None:
        nx = args.nx or hexmesh.box_size(args.ndofs_per_rank, args.degree, problem.nfields)
        NZ = nx * size
    else:
        nx = args.nx or hexmesh.box_size(args.ndofs, args.degree, problem.nfields)
        NZ = nx
    try:
        part = ranks.slab(NZ, size, rank)
    except ValueError as e:
        refuse(str(e))
    try:
        return _run(args, problem, world, part, nx, NZ)
    except Exception as e:
        if world is None or size == 1:
            raise
        # one rank's failure would leave the others waiting in a collective for ever
        print(f"run.py: rank {rank}: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
        world.Abort(1)
        return 1


def _run(args: argparse.Namespace, problem: Problem, world: Any, part: ranks.Slab, nx: int,
         NZ: int) -> int:
    dev = ranks.device(args.mode, world)
    try:
        comm = ranks.communicator(world, dev, args.exchange)
    except okl.OKLError as e:  # collective: every rank has the same error
        if part.rank == 0:
            print(f"run.py: error: --exchange {args.exchange}: {e}", file=sys.stderr)
        return 1
    status = _solve(args, problem, world, part, nx, NZ, dev, comm)
    # NCCL's communicator and the MPI duplicate, before MPI finalizes (not after an error:
    # closing is collective, and main aborts the job instead)
    comm.close()
    return status


def _solve(args: argparse.Namespace, problem: Problem, world: Any, part: ranks.Slab, nx: int,
           NZ: int, dev: okl.Device, comm: Any) -> int:
    build = functools.partial(okl.mpi.build_kernel, world, dev) if world is not None else None
    setup = Setup(dev, args.kernels, problem, args.degree, nx, nx, NZ, args.mode, part=part,
                  comm=comm, build=build)
    failed = False
    record: dict = {}
    if problem.solve:
        result = run_bp(setup, args.iterations, args.warmup_iterations, world=world,
                        overlap=part.size > 1, sums=args.sums, graphs=args.graphs)
        line = scaling_record(result, setup)
        if args.check:
            verdict = check_against_one_rank(setup, result, world, args.kernels, args.mode,
                                             args.check_rtol)
            if verdict is not None:
                record["check_one_rank_history"] = verdict.pop("check_one_rank_history")
                line.update(verdict)
                failed = not verdict["check"]
        if part.rank == 0:
            print(bp_line(result))
            line.update(mode=args.mode, device=dev.name)
            print(json.dumps(line), flush=True)
            if args.check:
                print(f"check: {'passed' if not failed else 'FAILED'}: iterations "
                      f"{result['iterations']} against one rank's "
                      f"{line.get('check_one_rank_iterations')}, relative difference "
                      f"{line.get('check_relative_difference', float('nan')):.2e} "
                      f"(at most {line.get('check_rtol', float('nan')):.2e}: 1e4 eps kappa, "
                      f"kappa ~ {line.get('check_condition_estimate', float('nan')):.3g}), "
                      f"residual history "
                      f"{line.get('check_history_relative_difference', float('nan')):.2e} "
                      f"of its start over its first {HISTORY_ITERATIONS} iterations (at most "
                      f"{HISTORY_RTOL:g})")
        record.update(line)
    else:
        result = run_bk(setup)
        print(bk_line(result))
    if args.json and part.rank == 0:
        record.update({k: v for k, v in result.items() if isinstance(v, (int, float, str))})
        record["history"] = result.get("history", [])
        record.update(mode=args.mode, device=dev.name, nx=nx, NZ=NZ, kernels=str(args.kernels))
        args.json.write_text(json.dumps(record, indent=1) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
