"""examples/benchparanumal/run.py on several ranks (issue 33 item 4): the slab numbering in
numpy, then real ``mpiexec`` jobs on CPU modes whose ``--check`` compares the ranks' BP5
solution with one rank's solve of the same box (iterations equal, answer to 1e-10); a
dropped partial sum makes ``--check`` fail; a foreign launcher is refused.

mpi4py and mpich come with the ``test`` extra; without them the MPI jobs skip and say why.
Each job has a timeout and is killed with its process group.  Sizes are small (degree 3,
a few thousand DOFs): each job takes 2-5 s on 2 cores.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import mpirun
import numpy as np
import pytest
from modes import skip_unless_available

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "examples" / "benchparanumal"
RUN = FOLDER / "run.py"
sys.path.insert(0, str(FOLDER))

import hexmesh  # noqa: E402
import ranks  # noqa: E402
import reference  # noqa: E402
from problems import parse  # noqa: E402

TIMEOUT = 120  # seconds per mpiexec job (2-5 s each; first builds and a busy CI take more)


# -- the partition, in numpy ----------------------------------------------------------------------

def test_slabs_cover_the_layers_once() -> None:
    for NZ in (1, 4, 7, 10):
        for size in range(1, min(NZ, 5) + 1):
            parts = [ranks.slab(NZ, size, r) for r in range(size)]
            assert parts[0].k0 == 0 and sum(p.nz for p in parts) == NZ
            assert all(a.k0 + a.nz == b.k0 for a, b in zip(parts, parts[1:], strict=False))
            assert max(p.nz for p in parts) - min(p.nz for p in parts) <= 1
            assert parts[0].below is None and parts[-1].above is None
    with pytest.raises(ValueError, match="3 element layers cannot be split over 4 ranks"):
        ranks.slab(3, 4, 0)


def _part(ref: hexmesh.Reference, nx: int, NZ: int, size: int, rank: int, nfields: int):
    p = ranks.slab(NZ, size, rank)
    mesh = hexmesh.BoxMesh(ref, nx, nx, p.nz, p.k0, NZ)
    num = hexmesh.numbering(mesh, nfields, per_block=40, shared_below=p.below is not None,
                            shared_above=p.above is not None)
    return p, mesh, num


@pytest.mark.parametrize("nfields", [1, 3])
def test_slab_numberings_are_the_whole_box_shared_once(nfields: int) -> None:
    """Owned rows of the ranks are the one-rank rows, each once; a rank's top plane is the
    rank above's halo, row for row; only the box's boundary is masked."""
    ref = hexmesh.Reference(2)
    nx, NZ, size = 2, 5, 3
    whole = hexmesh.numbering(hexmesh.BoxMesh(ref, nx, nx, NZ), nfields)
    parts = [_part(ref, nx, NZ, size, r, nfields) for r in range(size)]
    owned = np.concatenate([num.row_keys[:num.Ngather] for _, _, num in parts])
    assert np.array_equal(np.sort(owned), np.sort(whole.row_keys))
    for (_, _, lower), (_, _, upper) in zip(parts, parts[1:], strict=False):
        assert lower.Nsend == upper.Nhalo == nfields * (nx * ref.n - 1) ** 2
        assert np.array_equal(lower.row_keys[:lower.Nsend], upper.row_keys[upper.Ngather:])
    for _, mesh, num in parts:
        # the halo CSR lists exactly the members of the halo rows, in ascending local order
        rows = num.global_to_local[num.halo_col_ids]
        assert np.all(rows >= num.Ngather) and len(num.halo_col_ids) == \
            int(np.sum(num.global_to_local >= num.Ngather))
        starts = num.halo_row_starts
        assert all(np.all(np.diff(num.halo_col_ids[a:b]) > 0)
                   for a, b in zip(starts[:-1], starts[1:], strict=True))
        x, y, z = mesh.physical_nodes()
        boundary = (np.abs(np.abs(x) - 1) < 1e-12) | (np.abs(np.abs(y) - 1) < 1e-12) | \
            (np.abs(np.abs(z) - 1) < 1e-12)
        masked = num.global_to_local.reshape(mesh.E, nfields, ref.Np) < 0
        for f in range(nfields):
            assert np.array_equal(masked[:, f].reshape(-1), boundary)
    # a slab's mesh is the whole box's elements k0*nx*nx.. bit for bit
    x_whole = hexmesh.BoxMesh(ref, nx, nx, NZ).physical_nodes()[2]
    p, mesh, _ = parts[1]
    start = p.k0 * nx * nx * ref.Np
    assert np.array_equal(mesh.physical_nodes()[2], x_whole[start:start + mesh.E * ref.Np])


def test_halo_then_sums_give_the_assembled_operator() -> None:
    """What the driver's operator does, in numpy: each rank reads its owned values and the
    halo (the rank below's top plane), applies the BP5 operator to its elements, gathers its
    owned and halo rows, and adds the halo sums to their owner: the one-rank operator."""
    ref = hexmesh.Reference(3)
    nx, NZ, size = 2, 4, 3
    problem = parse("BP5")

    def setup(mesh, num):
        x, y, z = mesh.physical_nodes()
        wJ, ggeo = mesh.geometric_factors(x, y, z)
        return SimpleNamespace(problem=problem, ref=ref, E=mesh.E, num=num,
                               host={"wJ": wJ, "ggeo": ggeo})

    whole_mesh = hexmesh.BoxMesh(ref, nx, nx, NZ)
    whole = setup(whole_mesh, hexmesh.numbering(whole_mesh, 1))
    rng = np.random.default_rng(5)
    q = rng.standard_normal(whole.num.Ngather)
    by_key = dict(zip(whole.num.row_keys.tolist(), q, strict=True))
    want = dict(zip(whole.num.row_keys.tolist(),
                    reference.gather(reference.operator(whole, q),
                                     whole.num.global_to_local, whole.num.Ngather),
                    strict=True))
    got: dict[int, float] = {}
    halo_sums = []
    for r in range(size):
        _, mesh, num = _part(ref, nx, NZ, size, r, 1)
        s = setup(mesh, num)
        mine = np.array([by_key[k] for k in num.row_keys.tolist()])  # owned + halo values
        local = reference.operator(s, mine)
        sums = reference.gather(local, num.global_to_local, num.Nall)
        got.update(zip(num.row_keys[:num.Ngather].tolist(), sums[:num.Ngather], strict=True))
        halo_sums.append((num.row_keys[num.Ngather:].tolist(), sums[num.Ngather:]))
    for keys, sums in halo_sums:
        for k, v in zip(keys, sums, strict=True):
            got[k] += v
    assert got.keys() == want.keys()
    keys = sorted(want)
    np.testing.assert_allclose([got[k] for k in keys], [want[k] for k in keys], rtol=1e-12,
                               atol=1e-13 * max(abs(v) for v in want.values()))


# -- under mpiexec --------------------------------------------------------------------------------

_mpiexec = mpirun.mpiexec


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.pop("OMP_NUM_THREADS", None)  # the driver divides the cores between the ranks
    return env


def _run(tmp_path: Path, ranks_: int, args: list[str], script: Path = RUN):
    """mpiexec -n RANKS python run.py ARGS --json REPORT: (exit code, output, report)."""
    report = tmp_path / "report.json"
    cmd = [_mpiexec(), "-n", str(ranks_), sys.executable, str(script), "--problem", "BP5",
           "--degree", "3", "--warmup-iterations", "2", *args, "--json", str(report)]
    rc, out = mpirun.run(cmd, env=_env(), cwd=tmp_path, timeout=TIMEOUT)
    data = json.loads(report.read_text()) if report.exists() else None
    return rc, out, data


CASES = [  # (mode, ranks, arguments)
    ("serial", 2, ["--ndofs", "6e3", "--iterations", "40"]),   # 7x7x7: 4 + 3 layers
    ("serial", 4, ["--ndofs", "6e3", "--iterations", "25"]),   # 2, 2, 2, 1 layers
    ("openmp", 2, ["--ndofs-per-rank", "2e3", "--iterations", "30"]),  # weak: 5x5x10
    # the dots summed by the communicator (on the device, where it has one) instead of by
    # MPI on the host after the read-back
    ("serial", 2, ["--ndofs", "6e3", "--iterations", "30", "--sums", "device"]),
    # CG's scalars on the device, nothing read back until the solve ends
    ("serial", 4, ["--ndofs", "6e3", "--iterations", "25", "--sums", "resident"]),
]


@pytest.mark.parametrize("mode, nranks, extra", CASES,
                         ids=[f"{m}-{r}ranks{'-' + e[-1] + '-sums' if '--sums' in e else ''}"
                              for m, r, e in CASES])
def test_ranks_solve_what_one_rank_solves(tmp_path: Path, mode: str, nranks: int,
                                          extra: list[str]) -> None:
    skip_unless_available(mode)
    rc, out, report = _run(tmp_path, nranks, ["--mode", mode, "--check", *extra])
    assert rc == 0, out
    assert report is not None, out
    iterations = int(extra[extra.index("--iterations") + 1])
    assert report["check"] is True, out
    assert report["iterations"] == report["check_one_rank_iterations"] == iterations
    assert 0 < report["check_relative_difference"] <= 1e-10, out  # 0: not two different sums
    assert report["ranks"] == nranks and report["exchange"] == "host", out
    assert report["DOFs_per_rank"] == pytest.approx(report["DOFs"] / nranks)
    assert report["DOFs*iterations/(ranks*time)"] == pytest.approx(
        report["DOFs"] * iterations / (nranks * report["seconds"]))
    for key in ("compute", "exchange", "exposed"):
        assert report[f"{key}_seconds_per_iteration"] >= 0
    # the JSON line rank 0 printed is the report's scaling part
    line = json.loads(next(t for t in out.splitlines() if t.startswith("{")))
    assert line["iterations"] == iterations and line["exchange"] == "host"
    assert line["sums"] == (extra[-1] if "--sums" in extra else "host")
    if "--ndofs-per-rank" in extra:
        assert report["NZ"] == nranks * report["nx"]


def _cg_solves(sums: str, zero_residual: bool = False, iterations: int = 30,
               mode: str = "serial", graphs: str = "auto", solves: int = 1):
    """One rank's BP5 CG, as run.py runs it: (iterations, residual norms, coefficients, x)
    of the last of ``solves`` solves (each from the start; on cuda the second and later
    solves launch the graph the first captured)."""
    import run

    import okl
    dev = okl.Device(mode)
    problem = parse("BP5")
    s = run.Setup(dev, run.STANDINS, problem, 3, 4, 4, 4, mode)
    cg = run.CG(s, sums=sums, graphs=graphs)
    x, r, start = run.bp_system(s)
    for _ in range(solves):
        start()
        if zero_residual:  # CG stops before its first iteration, as benchParanumal's does
            r.set(np.zeros(s.nall))
        history: list[float] = []
        coefficients: list[tuple[float, float]] = []
        done = cg.solve(x, r, iterations, history, coefficients)
    assert cg.graphs == (mode == "cuda" and sums == "resident" and graphs == "auto")
    return done, history, coefficients, x.get()


@pytest.mark.parametrize("zero_residual", [False, True], ids=["solve", "nothing-to-solve"])
def test_resident_cg_is_the_host_loop_bit_for_bit(zero_residual: bool) -> None:
    """--sums resident computes alpha and beta on the device from the dots it keeps there:
    the same divisions of the same numbers and the same updates as the host loop, so the
    same bits, the same iteration count, and the same stop where the residual is zero."""
    host = _cg_solves("host", zero_residual)
    resident = _cg_solves("resident", zero_residual)
    assert host[0] == resident[0] == (0 if zero_residual else 30)
    assert host[1] == resident[1] and host[2] == resident[2]
    assert np.array_equal(host[3], resident[3])
    assert len(resident[1]) == resident[0]


@pytest.mark.gpu
@pytest.mark.parametrize("zero_residual", [False, True], ids=["solve", "nothing-to-solve"])
def test_resident_cg_as_cuda_graphs_is_the_host_loop_bit_for_bit(zero_residual: bool) -> None:
    """On cuda each resident iteration after a first solve's first is one launch of a
    captured graph (its number read on the device): the same kernels in the same order as
    the host loop queues them one by one, so the same bits -- in a first solve (the first
    iteration queued, then captured) and a second (every iteration the kept graph), and with
    graphs off."""
    skip_unless_available("cuda")
    host = _cg_solves("host", zero_residual, mode="cuda")
    for graphs, solves in (("auto", 1), ("auto", 2), ("off", 1)):
        resident = _cg_solves("resident", zero_residual, mode="cuda", graphs=graphs,
                              solves=solves)
        assert host[0] == resident[0] == (0 if zero_residual else 30)
        assert host[1] == resident[1] and host[2] == resident[2]
        assert np.array_equal(host[3], resident[3])


@pytest.mark.gpu
def test_ranks_solve_what_one_rank_solves_with_cuda_graphs(tmp_path: Path) -> None:
    """Two ranks on two GPUs, NCCL exchanges and device sums captured in each iteration's
    graph: --check passes against one rank's host loop."""
    skip_unless_available("cuda")
    import cupy
    if cupy.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs (NCCL: one GPU per rank)")
    rc, out, report = _run(tmp_path, 2, ["--mode", "cuda", "--check", "--ndofs", "2e4",
                                         "--iterations", "30", "--sums", "resident"])
    assert rc == 0, out
    assert report["check"] is True and report["graphs"] is True, out
    assert report["exchange"] == "nccl", out
    assert report["iterations"] == report["check_one_rank_iterations"] == 30


# Faults the check must see.  DROP_ONCE: rank 0 drops, once, the partial sums of its top
# plane that the rank above sent (the exchange still runs, so the ranks stay in step).
# DOT_OFF: rank 0's global dots are 1e-6 off (as if a shared node were weighted wrongly):
# CG still converges to the same answer, by another path, so only the residual history shows
# it.  Both drive run.main through a wrapper.
DROP_ONCE = """
import sys
sys.path.insert(0, {folder!r})
import run
real = run.Setup.gather_received
calls = {{"n": 0}}

def gather_received(self, local, gathered):
    if self.part.rank == 0 and self.num.Nsend:
        calls["n"] += 1
        if calls["n"] == 6:  # the timed solve's second CG operator: the sums left out
            self.gather(local, gathered)
            return
    real(self, local, gathered)

run.Setup.gather_received = gather_received
sys.exit(run.main(sys.argv[1:]))
"""

DOT_OFF = """
import sys
sys.path.insert(0, {folder!r})
import run
real = run.CG._global

def off(self, partial):
    # rank 0's global dot products 1e-6 off (the several-rank solve's, not one rank's)
    value = real(self, partial)
    if self.world is not None and self.comm.rank == 0:
        return value * (1 + 1e-6)
    return value

run.CG._global = off
sys.exit(run.main(sys.argv[1:]))
"""


@pytest.mark.parametrize("fault, what", [(DROP_ONCE, "check_relative_difference"),
                                         (DOT_OFF, "check_history_relative_difference")],
                         ids=["lost-partial-sum", "dot-off"])
def test_check_fails_on_a_fault(tmp_path: Path, fault: str, what: str) -> None:
    driver = tmp_path / "fault.py"
    driver.write_text(fault.format(folder=str(FOLDER)))
    rc, out, report = _run(tmp_path, 2, ["--mode", "serial", "--ndofs", "6e3", "--iterations",
                                         "20", "--check"], script=driver)
    assert rc == 1, out
    assert "check: FAILED" in out
    assert report["check"] is False and report[what] > 1e-7, out


def test_a_foreign_launcher_is_refused_not_run_as_one_rank(tmp_path: Path) -> None:
    """Open MPI's variable says 4 ranks, mpi4py's library a world of 1: an error naming the
    variable and the fix, exit 1, no traceback."""
    pytest.importorskip("mpi4py", reason="mpi4py is not installed (pip install -e .[test])")
    env = {k: v for k, v in _env().items() if not k.startswith(("PMI_", "PMIX_", "OMPI_"))}
    env["OMPI_COMM_WORLD_SIZE"] = "4"
    proc = subprocess.run([sys.executable, str(RUN), "--problem", "BP5", "--degree", "2",
                           "--nx", "2", "--iterations", "2", "--warmup-iterations", "0"],
                          env=env, cwd=tmp_path, capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "OMPI_COMM_WORLD_SIZE=4" in proc.stderr and "MPI4PY_LIBMPI" in proc.stderr
    assert "Traceback" not in proc.stderr and "BP5:" not in proc.stdout


def test_the_scaling_command_writes_weak_efficiency(tmp_path: Path) -> None:
    """benchmarks.benchparanumal_scaling runs mpiexec per rank count and writes one JSON file:
    a row per rank count, the efficiency against one rank, iterations equal to one rank's."""
    _mpiexec()
    out = tmp_path / "weak.json"
    cmd = [sys.executable, "-m", "benchmarks.benchparanumal_scaling", "--ranks", "2,1",
           "--problem", "BP5", "--degree", "2", "--ndofs-per-rank", "1e3", "--mode",
           "serial", "--iterations", "8", "--warmup-iterations", "0", "--check", "--out",
           str(out)]
    proc = subprocess.run(cmd, env=_env(), cwd=ROOT, capture_output=True, text=True,
                          timeout=2 * TIMEOUT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = json.loads(out.read_text())
    rows = doc["rows"]
    assert [r["ranks"] for r in rows] == [1, 2] and doc["iterations_equal_to_one_rank"]
    assert rows[0]["weak_efficiency"] == 1.0 and doc["weak_efficiency"]["1"] == 1.0
    assert doc["weak_efficiency"]["2"] == pytest.approx(
        rows[1]["DOFs*iterations/(ranks*time)"] / rows[0]["DOFs*iterations/(ranks*time)"])
    assert all(r["check"] is True and r["iterations"] == 8 for r in rows)
    assert rows[1]["NZ"] == 2 * rows[1]["nx"] and rows[1]["exchange"] == "host"
    assert "| 2 |" in proc.stdout and str(out) in proc.stdout
