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
Hexahedra, one process; the box has ``nx = round((ndofs / (Nfields p^3))^(1/3))`` elements
per direction, as benchParanumal's run scripts choose it (``--nx`` overrides).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import hexmesh  # noqa: E402
from problems import Problem, parse  # noqa: E402

import okl  # noqa: E402

STANDINS = HERE / "standins"
OGS_BLOCK = 256
LINALG_BLOCK = 256
CG_BLOCK = 512


class Setup:
    """Everything a problem's kernels read, on one okl device."""

    def __init__(self, dev: okl.Device, root: Path, problem: Problem, degree: int,
                 nx: int, ny: int, nz: int, mode: str) -> None:
        self.dev, self.problem, self.degree = dev, problem, degree
        self.ref = hexmesh.Reference(degree)
        self.mesh = hexmesh.BoxMesh(self.ref, nx, ny, nz)
        self.E = self.mesh.E
        x, y, z = self.mesh.physical_nodes()
        wJ, ggeo = self.mesh.geometric_factors(x, y, z)
        self.num = hexmesh.numbering(self.mesh, problem.nfields)
        self.host = {"x": x, "y": y, "z": z, "wJ": wJ, "ggeo": ggeo}
        a = dev.asarray
        self.o = {"x": a(x), "y": a(y), "z": a(z), "wJ": a(wJ), "ggeo": a(ggeo),
                  "gllw": a(self.ref.gllw), "D": a(self.ref.D.reshape(-1)),
                  "MM": a(self.ref.MM.reshape(-1)),
                  "empty": dev.zeros(1, np.float64),
                  "elementList": a(np.arange(self.E, dtype=np.int32)),
                  # the second half of the list, as its own buffer: the C++ code passes
                  # an offset into the list, which OpenCL can pass to a kernel only at
                  # the device's base address alignment
                  "elementListSecond": a(np.arange(self.E // 2, self.E, dtype=np.int32)),
                  "GlobalToLocal": a(self.num.global_to_local),
                  "blockStarts": a(self.num.block_starts),
                  "rowStarts": a(self.num.row_starts), "colIds": a(self.num.col_ids)}
        if problem.cubature:
            cubwJ, cubggeo = self.mesh.cubature_factors(x, y, z)
            self.host.update(cubwJ=cubwJ, cubggeo=cubggeo)
            self.o.update(cubwJ=a(cubwJ), cubggeo=a(cubggeo),
                          cubInterp=a(self.ref.cubInterp.reshape(-1)),
                          cubD=a(self.ref.cubD.reshape(-1)))
        defines = problem.defines(degree, mode)
        path, name = problem.operator
        self.operator_kernel = dev.build_kernel(root / path, name, defines=defines,
                                                include_dirs=[root / "okl"])
        self.rhs_kernel = dev.build_kernel(root / "okl" / "rhsHex3D.okl", "rhsHex3D",
                                           defines=defines, include_dirs=[root / "okl"])
        platform = {k: v for k, v in defines.items() if not k.startswith("p_")}
        ogs = dict(platform, p_blockSize=OGS_BLOCK, p_gatherNodesPerBlock=512, T="double",
                   OGS_OP_INIT=0, **{"OGS_OP(a,b)": "a+=b"})
        self.gather_kernel = dev.build_kernel(root / "libs/ogs/okl/ogsKernels.okl", "gather",
                                              defines=ogs)
        if problem.solve:
            linalg = dict(platform, p_blockSize=LINALG_BLOCK)
            core = root / "libs/core/okl"
            self.k = {name: dev.build_kernel(core / file, name, defines=linalg)
                      for file, name in (("linAlgSet.okl", "set"), ("linAlgAXPY.okl", "axpy"),
                                         ("linAlgNorm2.okl", "norm2_1"),
                                         ("linAlgNorm2.okl", "norm2_2"),
                                         ("linAlgInnerProd.okl", "innerProd_1"),
                                         ("linAlgInnerProd.okl", "innerProd_2"))}
            cg = dict(platform, p_blockSize=CG_BLOCK)
            for name in ("updateCG_1", "updateCG_2"):
                self.k[name] = dev.build_kernel(core / "linearSolverUpdateCG.okl", name,
                                                defines=cg)

    @property
    def ndofs(self) -> int:
        return self.num.Ngather

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

    def apply_local(self, count: int, first: int, q, Aq) -> None:
        """The operator kernel on elements ``first .. first + count - 1`` of the list."""
        if first == 0:
            elements = self.o["elementList"]
        elif first == self.E // 2 and count == self.E - first:
            elements = self.o["elementListSecond"]
        else:
            raise ValueError("the operator runs on the whole list or on its two halves")
        self.operator_kernel(count, elements, self.o["GlobalToLocal"], *self.operator_args(),
                             q, Aq)

    def gather(self, local, gathered) -> None:
        """``gathered[row] = sum of local over the row's members`` (ogs Gather, Add, Trans)."""
        self.gather_kernel(len(self.num.block_starts) - 1, 1, self.o["blockStarts"],
                           self.o["rowStarts"], self.o["colIds"], local, gathered)

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
        s.apply_local(s.E, 0, q, Aq)
    dev.finish()
    start = time.perf_counter()
    for _ in range(tests):
        s.apply_local(s.E, 0, q, Aq)
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
    """benchParanumal's linearSolverCG: plain CG with its kernels and its order of work."""

    def __init__(self, s: Setup) -> None:
        self.s = s
        dev = s.dev
        n = s.ndofs
        self.p = dev.zeros(n, np.float64)
        self.Ap = dev.zeros(n, np.float64)
        self.AqL = dev.zeros(s.nlocal, np.float64)
        self.tmp = dev.zeros(CG_BLOCK, np.float64)
        self.scratch = dev.zeros(LINALG_BLOCK, np.float64)
        # the first entries, read back each iteration (made once, as the C++ code keeps its
        # pinned h_scratch)
        self.tmp0, self.scratch0 = self.tmp[0:1], self.scratch[0:1]

    def operator(self, q, Aq) -> None:
        """Half the elements, then the other half, then the gather (bp*Operator.cpp)."""
        s, E = self.s, self.s.E
        if E // 2:
            s.apply_local(E // 2, 0, q, self.AqL)
        if (E + 1) // 2:
            s.apply_local((E + 1) // 2, E // 2, q, self.AqL)
        s.gather(self.AqL, Aq)

    def _reduce(self, first: str, second: str, *vectors) -> float:
        k, n = self.s.k, self.s.ndofs
        blocks = min(math.ceil(n / LINALG_BLOCK), LINALG_BLOCK)
        k[first](blocks, n, *vectors, self.scratch)
        k[second](blocks, self.scratch)
        return float(self.scratch0.get()[0])

    def solve(self, x, r, maxit: int, history: list[float] | None = None) -> int:
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
            blocks = min(math.ceil(n / CG_BLOCK), CG_BLOCK)
            k["updateCG_1"](n, blocks, self.Ap, alpha, r, self.tmp)
            k["updateCG_2"](blocks, self.tmp)
            rdotr = float(self.tmp0.get()[0])
            k["axpy"](n, alpha, self.p, 1.0, x)
            if history is not None:
                history.append(math.sqrt(max(rdotr, 0.0)))
        else:
            it = maxit
        return it


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
    n = s.ndofs
    x = s.dev.zeros(n, np.float64)
    r = s.dev.zeros(n, np.float64)
    rL = s.dev.zeros(s.nlocal, np.float64)

    def start() -> None:
        s.k["set"](n, 0.0, x)
        s.rhs(rL)
        s.gather(rL, r)

    return x, r, start


def run_bp(s: Setup, iterations: int = 100, warmup_iterations: int = 1000) -> dict:
    dev = s.dev
    n = s.ndofs
    cg = CG(s)
    x, r, start = bp_system(s)
    start()
    if warmup_iterations:
        cg.solve(x, r, warmup_iterations)
    start()
    dev.finish()
    history: list[float] = []
    t0 = time.perf_counter()
    done = cg.solve(x, r, iterations, history)
    dev.finish()
    elapsed = time.perf_counter() - t0
    p, N = s.problem, s.degree
    nbytes = p.solve_bytes(N, n, s.E, done)
    nflops = p.solve_flops(N, n, s.E, done)
    return {"problem": p.name, "N": N, "DOFs": n, "elapsed": elapsed, "iterations": done,
            "residual": history[-1] if history else float("nan"),
            "GDOF/s": n * done / elapsed / 1e9, "GB/s": nbytes / (1e9 * elapsed),
            "GFLOP/s": nflops / (1e9 * elapsed), "x": x, "history": history}


def bp_line(r: dict) -> str:
    e, n, it = r["elapsed"], r["DOFs"], r["iterations"]
    return (f"{r['problem']}: N={r['N']:2d}, DOFs={n}, elapsed={e:4.4f}, iterations={it}, "
            f"time per DOF={e / n:1.2e}, avg BW (GB/s)={r['GB/s']:6.1f}, "
            f"avg GFLOPs={r['GFLOP/s']:6.1f}, DOFs*iterations/ranks*time={n * it / e:1.2e}, "
            f"Element=Hex  (final residual {r['residual']:.12e})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernels", type=Path, default=STANDINS,
                    help="a benchParanumal checkout (default: okl's stand-ins, BK5/BP5)")
    ap.add_argument("--problem", default="BK5")
    ap.add_argument("--element", default="Hex", choices=["Hex"])
    ap.add_argument("--degree", type=int, default=4)
    ap.add_argument("--ndofs", type=float, default=4e6)
    ap.add_argument("--nx", type=int, help="elements per direction (default: from --ndofs)")
    ap.add_argument("--mode", default="serial")
    ap.add_argument("--iterations", type=int, default=100, help="BP: timed CG iterations")
    ap.add_argument("--warmup-iterations", type=int, default=1000,
                    help="BP: iterations of the untimed solve before it")
    ap.add_argument("--json", type=Path, help="write the result here too")
    args = ap.parse_args(argv)
    problem = parse(args.problem)
    if not 1 <= args.degree <= 8:
        ap.error("--degree must be 1..8")
    nx = args.nx or hexmesh.box_size(args.ndofs, args.degree, problem.nfields)
    dev = okl.Device(args.mode)
    setup = Setup(dev, args.kernels, problem, args.degree, nx, nx, nx, args.mode)
    if problem.solve:
        result = run_bp(setup, args.iterations, args.warmup_iterations)
        print(bp_line(result))
    else:
        result = run_bk(setup)
        print(bk_line(result))
    if args.json:
        record = {k: v for k, v in result.items() if isinstance(v, (int, float, str))}
        record.update(mode=args.mode, device=dev.name, nx=nx, kernels=str(args.kernels))
        args.json.write_text(json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
