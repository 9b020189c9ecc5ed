"""The benchParanumal driver's parts (examples/benchparanumal) against numpy, on small meshes.

CI has no benchParanumal checkout: the kernels here are okl's stand-ins (same files, names
and signatures; BK5/BP5, the gather, the CG linear algebra).  With ``BENCHPARANUMAL`` set
to a checkout, every BK and BP problem runs its own kernels against the references too.
The runs themselves are benchmarks (``run.py --json``), not timed tests.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest
from modes import device, params

HERE = Path(__file__).resolve().parent
DRIVER = HERE.parent / "examples" / "benchparanumal"
sys.path.insert(0, str(DRIVER))

import hexmesh  # noqa: E402
import reference  # noqa: E402
import run  # noqa: E402
from problems import parse  # noqa: E402

CPU_LIKE = params(("serial", "openmp", "opencl"))


# -- reference element and mesh (numpy only) -----------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 4, 7])
def test_reference_element_integrates_and_differentiates_polynomials(n: int) -> None:
    ref = hexmesh.Reference(n)
    z = ref.gllz
    assert z[0] == -1 and z[-1] == 1 and np.all(np.diff(z) > 0)
    np.testing.assert_allclose(ref.gllw.sum(), 2.0, rtol=1e-14)
    np.testing.assert_allclose(ref.cubw.sum(), 2.0, rtol=1e-14)
    for k in range(n + 1):  # exact on polynomials of degree n
        np.testing.assert_allclose(ref.D @ z ** k, k * z ** max(k - 1, 0), atol=1e-11)
        np.testing.assert_allclose(ref.cubInterp @ z ** k, ref.cubr ** k, atol=1e-12)
    # Gauss with n + 2 points integrates degree 2n + 3 exactly; GLL degree 2n - 1
    np.testing.assert_allclose(ref.cubw @ ref.cubr ** (2 * n + 2), 2 / (2 * n + 3), rtol=1e-12)
    np.testing.assert_allclose(ref.gllw @ z ** (2 * n - 2) if n > 1 else ref.gllw.sum(),
                               2 / (2 * n - 1) if n > 1 else 2.0, rtol=1e-12)


def test_geometric_factors_of_the_box() -> None:
    """A uniform box element of side h: J = (h/2)^3, r_x = 2/h, no cross terms."""
    ref = hexmesh.Reference(3)
    mesh = hexmesh.BoxMesh(ref, 4, 2, 2)
    x, y, z = mesh.physical_nodes()
    assert x.min() == -1 and x.max() == 1 and z.min() == -1 and z.max() == 1
    wJ, ggeo = mesh.geometric_factors(x, y, z)
    np.testing.assert_allclose(wJ.sum(), 8.0, rtol=1e-13)
    g = ggeo.reshape(-1, 6)
    hx, hy, hz = 2 / 4, 2 / 2, 2 / 2
    np.testing.assert_allclose(g[:, hexmesh.G00], wJ * (2 / hx) ** 2, rtol=1e-12)
    np.testing.assert_allclose(g[:, hexmesh.G11], wJ * (2 / hy) ** 2, rtol=1e-12)
    np.testing.assert_allclose(g[:, hexmesh.G22], wJ * (2 / hz) ** 2, rtol=1e-12)
    assert np.abs(g[:, [hexmesh.G01, hexmesh.G02, hexmesh.G12]]).max() < 1e-12
    cubwJ, _ = mesh.cubature_factors(x, y, z)
    np.testing.assert_allclose(cubwJ.sum(), 8.0, rtol=1e-13)


@pytest.mark.parametrize("nfields", [1, 3])
def test_masked_numbering(nfields: int) -> None:
    ref = hexmesh.Reference(3)
    mesh = hexmesh.BoxMesh(ref, 3, 2, 2)
    num = hexmesh.numbering(mesh, nfields, per_block=40)
    N = ref.n
    assert num.Ngather == nfields * (3 * N - 1) * (2 * N - 1) * (2 * N - 1)
    x, y, z = mesh.physical_nodes()
    g2l = num.global_to_local.reshape(mesh.E, nfields, ref.Np)
    on_boundary = (np.abs(np.abs(x) - 1) < 1e-12) | (np.abs(np.abs(y) - 1) < 1e-12) | \
        (np.abs(np.abs(z) - 1) < 1e-12)
    for f in range(nfields):
        assert np.array_equal(g2l[:, f].reshape(-1) < 0, on_boundary)
    # the members of a row sit at one point, of one field, in ascending local order
    points = np.round(np.stack([x, y, z], axis=1), 9)
    for row in range(num.Ngather):
        members = num.col_ids[num.row_starts[row]:num.row_starts[row + 1]]
        assert np.all(np.diff(members) > 0)
        fields = (members // ref.Np) % nfields
        nodes = (members // (ref.Np * nfields)) * ref.Np + members % ref.Np
        assert len(set(fields)) == 1 and len({tuple(points[n]) for n in nodes}) == 1
    # rows are numbered by first appearance; blocks hold at most 40 members
    firsts = num.col_ids[num.row_starts[:-1]]
    assert np.all(np.diff(firsts) > 0)
    sizes = np.diff(num.row_starts[num.block_starts])
    assert sizes.max() <= 40 and num.block_starts[-1] == num.Ngather


def test_box_size_is_the_run_scripts() -> None:
    assert [hexmesh.box_size(4e6, p, 1) for p in range(1, 9)] == \
        [159, 80, 53, 40, 32, 27, 23, 20]
    assert [hexmesh.box_size(4e6, p, 3) for p in range(1, 9)] == \
        [111, 56, 37, 28, 23, 19, 16, 14]


# -- the kernels through okl ------------------------------------------------------------------

def _setup(mode: str, root: Path, name: str, degree: int, nx=3, ny=2, nz=2) -> run.Setup:
    return run.Setup(device(mode), root, parse(name), degree, nx, ny, nz, mode)


@pytest.mark.parametrize("mode", CPU_LIKE)
@pytest.mark.parametrize("degree", [2, 5])
def test_gather_and_operator_match_numpy(mode: str, degree: int) -> None:
    s = _setup(mode, run.STANDINS, "BK5", degree)
    r = run.run_bk(s, tests=1, warmup=0)
    q = r["q"].get()
    want_q = reference.gather(reference.rhs(s), s.num.global_to_local, s.ndofs)
    np.testing.assert_allclose(q, want_q, rtol=1e-12, atol=1e-14 * np.abs(want_q).max())
    want = reference.operator(s, q)
    np.testing.assert_allclose(r["Aq"].get(), want, rtol=1e-11,
                               atol=1e-13 * np.abs(want).max())


@pytest.mark.parametrize("mode", CPU_LIKE)
def test_cg_matches_numpy(mode: str) -> None:
    s = _setup(mode, run.STANDINS, "BP5", 3)
    result = run.run_bp(s, iterations=15, warmup_iterations=3)
    b = reference.gather(reference.rhs(s), s.num.global_to_local, s.ndofs)
    x, history = reference.cg(s, b, 15)
    assert result["iterations"] == 15
    np.testing.assert_allclose(result["x"].get(), x, rtol=1e-9, atol=1e-12 * np.abs(x).max())
    # the residuals until they reach rounding (this right-hand side converges in a few steps)
    above = [k for k, h in enumerate(history) if h > 1e-10 * history[0]]
    assert above
    np.testing.assert_allclose(np.take(result["history"], above), np.take(history, above),
                               rtol=1e-8)


def test_the_command_line_prints_benchparanumals_line(tmp_path: Path, capsys) -> None:
    out = tmp_path / "bp5.json"
    assert run.main(["--problem", "BP5", "--degree", "2", "--nx", "2", "--iterations", "5",
                     "--warmup-iterations", "2", "--json", str(out)]) == 0
    line = capsys.readouterr().out
    assert line.startswith("BP5: N= 2, DOFs=27, elapsed=") and "iterations=5" in line
    assert '"iterations": 5' in out.read_text()


# -- benchParanumal's own kernels, where a checkout is named --------------------------------------

CHECKOUT = os.environ.get("BENCHPARANUMAL")


@pytest.mark.skipif(not CHECKOUT, reason="BENCHPARANUMAL (a benchParanumal checkout) not set")
@pytest.mark.parametrize("mode", CPU_LIKE)
@pytest.mark.parametrize("name", [f"BK{k}" for k in range(1, 7)] + [f"BP{k}" for k in range(1, 7)])
def test_benchparanumals_kernels(mode: str, name: str) -> None:
    s = _setup(mode, Path(CHECKOUT), name, 3)
    if s.problem.solve:
        result = run.run_bp(s, iterations=10, warmup_iterations=0)
        b = reference.gather(reference.rhs(s), s.num.global_to_local, s.ndofs)
        x, _ = reference.cg(s, b, 10)
        np.testing.assert_allclose(result["x"].get(), x, rtol=1e-9,
                                   atol=1e-12 * np.abs(x).max())
    else:
        r = run.run_bk(s, tests=1, warmup=0)
        want = reference.operator(s, r["q"].get())
        np.testing.assert_allclose(r["Aq"].get(), want, rtol=1e-11,
                                   atol=1e-13 * np.abs(want).max())


# -- the parity sweep against OCCA's dumps (benchmarks.benchparanumal_sweep) ----------------------

def _fake_occa_dump(folder: Path, s: run.Setup, outputs: dict) -> None:
    """Write what benchparanumal_occa/okl_dump.hpp writes, from okl's own run."""
    folder.mkdir(parents=True)
    s.num.global_to_local.astype(np.int32).tofile(folder / "GlobalToLocal.bin")
    for name in ("x", "y", "z", "wJ", "ggeo", "gllw", "D", "MM"):
        s.o[name].get().tofile(folder / f"{name}.bin")
    for name, values in outputs.items():
        np.asarray(values).tofile(folder / f"{name}.bin")


def test_sweep_parity_reads_occa_dumps_and_loads_its_arrays(tmp_path: Path) -> None:
    from benchmarks import benchparanumal_sweep as sweep
    from benchmarks.benchparanumal_compare import read, table

    dev = device("serial")
    s = run.Setup(dev, run.STANDINS, parse("BK5"), 3, 3, 3, 3, "serial")
    r = run.run_bk(s, tests=1, warmup=0)
    Aq = r["Aq"].get()
    folder = tmp_path / "BK5-N3"
    # OCCA's output one ulp-ish away at its largest entry, and its mesh arrays scaled: the
    # loaded arrays must be the ones the kernels then read
    theirs = Aq.copy()
    k = int(np.argmax(np.abs(theirs)))
    theirs[k] *= 1 + 1e-15
    _fake_occa_dump(folder, s, {"q": r["q"].get(), "Aq": theirs})
    got = sweep.parity(r, folder)
    assert got["q_rel"] == 0.0 and 0 < got["Aq_rel"] < 1e-14
    (2.0 * s.o["wJ"].get()).tofile(folder / "wJ.bin")
    sweep.load_inputs(s, folder)
    np.testing.assert_array_equal(s.o["wJ"].get(), 2.0 * s.host["wJ"])
    # a numbering that differs is refused, not run
    bad = s.num.global_to_local.astype(np.int32)
    bad[np.flatnonzero(bad >= 0)[0]] += 1
    bad.tofile(folder / "GlobalToLocal.bin")
    with pytest.raises(SystemExit, match="numbering"):
        sweep.load_inputs(s, folder)
    # the comparison table reads okl's JSON rows and OCCA's printed lines
    row = {"problem": "BK5", "N": 3, "DOFs": 8, "elapsed": 0.5, "Aq_rel": 2e-13}
    (tmp_path / "okl.json").write_text(json.dumps([row]))
    (tmp_path / "occa.txt").write_text(
        "BK5: N= 3, DOFs=8, elapsed=1.0, time per DOF=1, avg BW (GB/s)=1, avg GFLOPs=1, "
        "DOFs/ranks*time=8.0e+00, Element=Hex\n")
    text = table(read([str(tmp_path / "occa.txt")]), read([str(tmp_path / "okl.json")]))
    assert "| BK5 | 3 | 8 | 8 | 16 | 2.000 | 2e-13 |" in text


def test_sweep_parity_of_a_solve_compares_residual_histories(tmp_path: Path) -> None:
    from benchmarks import benchparanumal_sweep as sweep

    folder = tmp_path / "BP5-N2"
    folder.mkdir()
    theirs = [1.0, 0.5, 0.25 * (1 + 1e-8), 1e-20]
    (folder / "log.txt").write_text("CG: initial res norm 2.0\n" + "".join(
        f"CG: it {k + 1}, r norm {v:.12e}, alpha = 1.0e+00 \n" for k, v in enumerate(theirs)))
    np.zeros(3).tofile(folder / "solution.bin")

    class Fake:
        def get(self):
            return np.zeros(3)

    got = sweep.parity({"history": [1.0, 0.5, 0.25, 1e-20], "x": Fake()}, folder)
    assert got["occa_iterations"] == 4 and got["first_iteration_over_1e-10"] == 3
    assert got["occa_residual_fallen_there"] == pytest.approx(0.25)
    assert got["x_rel"] == 0.0 and got["residual_rel_final"] == 0.0
