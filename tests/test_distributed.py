"""examples/distributed/poisson.py under real ``mpiexec``: the answer of 1, 2 and 4 ranks equals
the one-rank answer (``--check``), on serial and openmp (and opencl where it runs), through
both halo-exchange paths; a wrong halo makes ``--check`` exit 1; the comparison rejects a
perturbed answer.

mpi4py and mpich come with the ``test`` extra; without them these tests skip and say why.
Each job has a timeout and is killed with its process group, so a hung rank fails the test
instead of hanging CI.  Sizes are small (48 x 48, ~150 CG iterations): the MPI tests take
about 15-25 s in all on 2 cores.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from modes import skip_unless_available

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "distributed" / "poisson.py"
TIMEOUT = 90  # seconds per mpiexec job (they take 1-4 s; first builds and a busy CI take more)
N = 48


def _mpiexec() -> str:
    """The mpiexec beside this Python (the pip mpich that mpi4py runs with), else PATH's."""
    pytest.importorskip("mpi4py", reason="mpi4py is not installed (pip install -e .[test])")
    here = Path(sys.executable).with_name("mpiexec")
    exe = str(here) if here.exists() else shutil.which("mpiexec")
    if exe is None:
        pytest.skip("no mpiexec found (pip install mpich)")
    return exe


def _run(tmp_path: Path, ranks: int, args: list[str], script: list[str] | None = None):
    """mpiexec -n RANKS python poisson.py ARGS --json REPORT; (exit code, output, report)."""
    report = tmp_path / "report.json"
    cmd = [_mpiexec(), "-n", str(ranks), sys.executable, *(script or [str(EXAMPLE)]),
           *args, "--json", str(report)]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.pop("OMP_NUM_THREADS", None)  # the example divides the cores between the ranks
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=tmp_path, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the process group of the mpiexec started here
        proc.communicate()
        pytest.fail(f"{' '.join(cmd)} did not finish in {TIMEOUT} s: a rank hangs")
    data = json.loads(report.read_text()) if report.exists() else None
    return proc.returncode, out, data


CASES = [  # (mode, ranks, extra arguments)
    ("serial", 1, []),
    ("serial", 2, []),                                # 2x1: rows only, straight from memory
    ("serial", 4, []),                                # 2x2: rows and packed columns
    ("serial", 2, ["--dims", "1x2", "--exchange", "host"]),  # columns through host arrays
    ("openmp", 1, []),
    ("openmp", 2, ["--dims", "1x2"]),
    ("openmp", 4, ["--exchange", "host"]),
    ("opencl", 2, []),                                # auto: falls back to host staging
]


@pytest.mark.parametrize("mode, ranks, extra", CASES,
                         ids=["-".join([m, f"{r}ranks", *e[1::2]]) for m, r, e in CASES])
def test_ranks_agree_with_one_rank(tmp_path, mode, ranks, extra):
    skip_unless_available(mode)
    rc, out, report = _run(tmp_path, ranks, ["--mode", mode, "--n", str(N), "--check", *extra])
    assert rc == 0, out
    assert report is not None, out
    assert report["check"] == "pass", out
    assert report["check_relative_difference"] <= report["check_tolerance"]
    assert report["ranks"] == ranks and report["gpus"] == 0 and report["mode"] == mode
    assert len(report["per_rank"]) == ranks
    # the answer is the manufactured solution up to the solver's tolerance (1e-8 residual)
    assert report["error_vs_exact"] < 1e-7, out
    assert 0 < report["iterations"] < 300
    want = "host" if "host" in extra or mode == "opencl" else "device"
    assert report["exchange"] == want, report["exchange_reason"]
    for row in report["per_rank"]:
        assert row["seconds_per_iteration"] > 0 and row["gbps"] > 0
        assert 0 <= row["exchange_seconds_per_iteration"] <= row["seconds_per_iteration"]
        assert (row["halo_bytes"] > 0) == (ranks > 1)


# One stale halo: on rank 1, the 5th exchange runs (so the ranks stay in step) but its
# halo rows are then put back to the previous iteration's values, as if an old message had
# been reused.  The one-rank reference has no neighbours and is untouched; the distributed
# answer then differs from it by far more than check_tolerance (6e-3 against 2.1e-11 at this
# size), though CG's
# recurrence residual still says it converged.
STALE_ONCE = """
import sys
sys.path.insert(0, {folder!r})
import poisson
real = poisson.HaloExchange.exchange
calls = {{"n": 0}}

def exchange(self):
    calls["n"] += 1 if self.recvs else 0
    if self.block.cart.rank != 1 or calls["n"] != 5:
        return real(self)
    old = [buf.get() for _, _, buf in self.recvs]
    real(self)
    for (_, _, buf), values in zip(self.recvs, old, strict=True):
        buf.copy_from(values)

poisson.HaloExchange.exchange = exchange
sys.exit(poisson.main(sys.argv[1:]))
"""


def test_check_fails_on_a_stale_halo(tmp_path):
    driver = tmp_path / "stale.py"
    driver.write_text(STALE_ONCE.format(folder=str(EXAMPLE.parent)))
    rc, out, report = _run(tmp_path, 2, ["--mode", "serial", "--n", str(N), "--check",
                                         "--warmup", "0"], script=[str(driver)])
    assert rc == 1, out
    assert "check: fail" in out
    assert report["check"] == "fail"
    assert report["check_relative_difference"] > 100 * report["check_tolerance"]


def _poisson():
    """The example as a module (imports mpi4py: MPI starts as a singleton in this process)."""
    pytest.importorskip("mpi4py", reason="mpi4py is not installed (pip install -e .[test])")
    module = sys.modules.get("poisson_example")
    if module is None:
        spec = importlib.util.spec_from_file_location("poisson_example", EXAMPLE)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
    return module


def test_compare_rejects_a_perturbed_answer():
    poisson = _poisson()
    rng = np.random.default_rng(3)
    ref = rng.random((N, N))
    tol = poisson.check_tolerance(N)
    assert 1e-11 < tol < 1e-10  # 100 eps kappa(A), kappa = cot^2(pi / (2 (N + 1))) ~ 970
    assert poisson.compare(ref.copy(), ref, tol) == (True, 0.0)
    # roundoff-level drift (what different rank counts give) passes ...
    ok, rel = poisson.compare(ref * (1 + 1e-14), ref, tol)
    assert ok and rel < 1e-13
    # ... a change of one point, at any size the check is meant to see, does not
    for delta in (10 * tol, 1e-6, 1e-3, 1.0):
        bad = ref.copy()
        bad[17, 3] += delta * np.linalg.norm(ref)
        ok, rel = poisson.compare(bad, ref, tol)
        assert not ok and rel == pytest.approx(delta, rel=1e-4)
    missing = ref.copy()
    missing[0, 0] = np.nan  # a point no rank wrote
    assert poisson.compare(missing, ref, tol)[0] is False
    assert poisson.compare(ref[:, :-1], ref, tol)[0] is False  # wrong shape
    assert poisson.compare(ref.T, ref, tol)[0] is False  # a transposed answer


def test_check_tolerance_follows_the_condition_number():
    poisson = _poisson()
    # kappa of the 5-point Laplacian grows as (2 (n + 1) / pi)^2
    eps = np.finfo(np.float64).eps
    for n in (48, 512, 2048):
        kappa = (2 * (n + 1) / np.pi) ** 2
        assert poisson.check_tolerance(n) == pytest.approx(100 * eps * kappa, rel=1e-3)
    assert poisson.check_tolerance(512) == pytest.approx(2.4e-9, rel=0.05)


def test_split_covers_the_grid():
    poisson = _poisson()
    for n in (1, 7, 48, 67):
        for parts in range(1, min(n, 5) + 1):
            runs = [poisson.split(n, parts, i) for i in range(parts)]
            assert runs[0][0] == 0 and sum(c for _, c in runs) == n
            assert all(a + c == b for (a, c), (b, _) in zip(runs, runs[1:], strict=False))
            assert max(c for _, c in runs) - min(c for _, c in runs) <= 1


def test_the_library_is_asked_about_gpu_pointers():
    """The question that keeps --exchange auto from handing a device pointer to an MPI that
    would crash on it: answered by the MPI library mpi4py loaded (the PyPI mpich wheel says
    no; a CUDA-aware MPICH or Open MPI says yes), never by a guess."""
    poisson = _poisson()
    mpich = poisson.MPI.Get_library_version().startswith("MPICH")
    for gpu in ("cuda", "hip"):
        aware, how = poisson.mpi_gpu_support(gpu)
        assert isinstance(aware, bool)
        if mpich:  # MPICH >= 4 has the query (the test extra installs MPICH 4.1+)
            assert how.startswith(f"MPIX_GPU_query_support({gpu}) = "), how
        else:
            assert "MPIX_" in how or "no libmpi" in how or "no GPU-support query" in how, how
