"""okl.mpi: one build per MPI job (okl/mpi.py) and the Cache hooks under it (cache.py).

The MPI tests run real ``mpiexec -n 2`` / ``-n 4`` jobs (mpi4py and mpich from the ``test``
extra) on a fresh cache directory; each rank writes what it saw to ``rank<r>.json``.  They
skip, saying why, only when mpi4py or mpiexec is absent.  Every job has a timeout, so a hang
fails the test instead of the suite.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import mpirun
import pytest

from okl.errors import OKLError
from okl.runtime.cache import Cache

#: okl's native call library (okl.runtime.drivers.cpu_native) is built where Python's headers are:
#: one more cache entry the builder broadcasts
NATIVE = int(os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 60

ADD = """\
@kernel void addVectors(const int N, const float *a, const float *b, float *c) {
  for (int i = 0; i < N; ++i; @tile(p_B, @outer, @inner)) {
    c[i] = a[i] + b[i];
  }
}

@kernel void scaleVector(const int N, const float s, float *c) {
  for (int i = 0; i < N; ++i; @tile(p_B, @outer, @inner)) {
    c[i] *= s;
  }
}
"""

# translates (the undeclared call is a warning), then the C compiler rejects it
BAD = """\
@kernel void broken(const int N, float *c) {
  for (int i = 0; i < N; ++i; @tile(16, @outer, @inner)) {
    c[i] = okl_no_such_function(i);
  }
}
"""

WORKER = r"""
import ctypes, json, os, sys
import numpy as np
from mpi4py import MPI
import okl
import okl.mpi

mode, cache, out, case, kernel_file = sys.argv[1:6]
if case == "missing":
    kernel_file += ".absent"
comm = MPI.COMM_WORLD
rank = comm.Get_rank()
result = {"rank": rank, "size": comm.Get_size(), "local_rank": okl.mpi.local_rank(comm)}
if mode == "openmp":
    threads = okl.mpi.threads_per_rank(comm)
    os.environ["OMP_NUM_THREADS"] = str(threads)   # before the first kernel loads libgomp
    result["threads_per_rank"] = threads
props = {}
if case == "other-flags" and rank == comm.Get_size() - 1:
    props["compiler_flags"] = "-O2"  # another build key: not in the broadcast
dev = okl.Device(mode, cache_dir=cache, **props)
defines = {"p_B": 64}
if case == "mismatch" and rank == comm.Get_size() - 1:
    defines = {"p_B": 32}
scope = "node" if case == "node" else "job"
try:
    k = okl.mpi.build_kernel(comm, dev, kernel_file, "broken" if case == "bad" else "addVectors",
                             defines=defines, scope=scope)
    s = okl.mpi.build_kernel(comm, dev, kernel_file, "scaleVector", defines=defines,
                             scope=scope)
except okl.OKLError as e:
    result.update(error=type(e).__name__, message=str(e))
    with open(os.path.join(out, f"rank{rank}.json"), "w") as f:
        json.dump(result, f)
    print(f"rank {rank}: okl: {e}", file=sys.stderr)
    sys.exit(1)
n = 1000 + rank
a = np.arange(n, dtype=np.float32)
b = np.full(n, rank, np.float32)
c = np.zeros(n, np.float32)
k(n, a, b, c)
s(n, np.float32(2), c)
result.update(correct=bool(np.array_equal(c, 2 * (a + b))),
              translation_hit=k.translation_hit, build_hit=k.build_hit,
              report=k.mpi_build.__dict__, second=s.mpi_build.__dict__)
if mode == "openmp":
    result["omp_max_threads"] = ctypes.CDLL("libgomp.so.1").omp_get_max_threads()
with open(os.path.join(out, f"rank{rank}.json"), "w") as f:
    json.dump(result, f)
"""


def _mpiexec() -> str | None:
    """The mpiexec beside this Python (the pip mpich that mpi4py was built with), else PATH's."""
    here = Path(sys.executable).with_name("mpiexec")
    return str(here) if here.exists() else shutil.which("mpiexec")


def _need_mpi() -> str:
    try:
        import mpi4py  # noqa: F401
    except ImportError as e:
        pytest.skip(f"mpi4py is not installed ({e}); pip install -e .[test] installs it")
    exe = _mpiexec()
    if exe is None:
        pytest.skip("no mpiexec found (pip install mpich)")
    return exe


def _job(tmp_path: Path, n: int, mode: str, case: str = "ok", source: str = ADD):
    """Run the worker on ``n`` ranks; returns (exit code, stderr, [per-rank results])."""
    exe = _need_mpi()
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    kernel = tmp_path / "kernels.okl"
    kernel.write_text(source)
    cache, out = tmp_path / "cache", tmp_path / "out"
    out.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("OKL_NO_CACHE", "OKL_CACHE_READONLY", "OKL_CACHE_DIR", "OMP_NUM_THREADS")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    cmd = [exe, "-n", str(n), sys.executable, str(script), mode, str(cache), str(out), case,
           str(kernel)]
    returncode, output = mpirun.run(cmd, env=env, cwd=tmp_path, timeout=TIMEOUT)
    results = [json.loads(p.read_text()) for p in sorted(out.glob("rank*.json"))]
    return returncode, output, results, cache


def _entries(cache: Path) -> dict[str, int]:
    return {level: len(list((cache / "v1" / level).glob("*/*/meta.json")))
            for level in ("translation", "build")}


@pytest.mark.parametrize("mode, ranks, case", [("serial", 4, "ok"), ("openmp", 2, "ok"),
                                              ("serial", 2, "node")])
def test_one_build_per_job(tmp_path, mode, ranks, case):
    rc, log, results, cache = _job(tmp_path, ranks, mode, case)
    assert rc == 0, log
    assert [r["rank"] for r in results] == list(range(ranks)), log
    assert all(r["correct"] for r in results), results
    # the translator and the compiler ran on rank 0 only: one miss of each, one entry each
    assert [(r["translation_hit"], r["build_hit"]) for r in results] == \
        [(False, False)] + [(True, True)] * (ranks - 1)
    assert _entries(cache) == {"translation": 1, "build": 1}
    for r in results:
        report = r["report"]
        assert report["builder"] == (r["rank"] == 0)
        # the translation and the library, and okl's native call library where it is built
        assert report["received_entries"] == 2 + NATIVE
        assert report["ranks_on_their_own"] == 0
        assert (report["overlay_hits"], report["overlay_misses"], report["own_builds"]) == \
            ((0, 0, 0) if r["rank"] == 0 else (2 + NATIVE, 0, 0))
        # the second kernel of the file comes from every rank's in-process memo
        assert r["second"]["received_entries"] == 0
        assert r["second"]["ranks_on_their_own"] == 0
        assert r["local_rank"] == r["rank"]  # one node here
    if mode == "openmp":  # OMP_NUM_THREADS set in the process reaches libgomp
        for r in results:
            assert r["omp_max_threads"] == r["threads_per_rank"] >= 1


def test_rank_with_other_keys_builds_itself(tmp_path):
    rc, log, results, cache = _job(tmp_path, 2, "serial", "other-flags")
    assert rc == 0, log
    assert all(r["correct"] for r in results), results
    first, other = results
    assert (first["translation_hit"], first["build_hit"]) == (False, False)
    # the translation (and the native call library) came from the broadcast; the library
    # (other flags) was compiled here
    assert (other["translation_hit"], other["build_hit"]) == (True, False)
    assert (other["report"]["overlay_hits"], other["report"]["overlay_misses"],
            other["report"]["own_builds"]) == (1 + NATIVE, 1, 1)
    assert first["report"]["ranks_on_their_own"] == other["report"]["ranks_on_their_own"] == 1
    assert "1 of 2 ranks did not find the builder's cache entries" in log, log
    assert _entries(cache) == {"translation": 1, "build": 2}


def test_build_error_same_on_every_rank(tmp_path):
    rc, log, results, cache = _job(tmp_path, 4, "serial", "bad", BAD)
    assert rc == 1, log
    assert "Traceback" not in log
    assert len(results) == 4, log
    assert {r["error"] for r in results} == {"BuildError"}
    messages = {r["message"] for r in results}
    assert len(messages) == 1, messages
    message = messages.pop()
    assert "okl_no_such_function" in message and "kernels.okl:3" in message, message
    assert _entries(cache)["build"] == 0


def test_unreadable_file_same_error_on_every_rank(tmp_path):
    rc, log, results, _ = _job(tmp_path, 2, "serial", "missing")
    assert rc == 1, log
    assert [r["error"] for r in results] == ["SourceFileError"] * 2, log
    assert len({r["message"] for r in results}) == 1
    assert "cannot read" in results[0]["message"] and "kernels.okl.absent" in results[0]["message"]


def test_rank_mismatch_reported(tmp_path):
    rc, log, results, cache = _job(tmp_path, 4, "serial", "mismatch")
    assert rc == 1, log
    assert len(results) == 4, log
    assert {r["error"] for r in results} == {"RankMismatchError"}
    messages = {r["message"] for r in results}
    assert len(messages) == 1, messages
    message = messages.pop()
    assert "the defines of rank 3 differ from rank 0's" in message, message
    # only rank 0 built (its own arguments, before the check's answer came): the rank that
    # differs did not build its variant
    assert _entries(cache) == {"translation": 1, "build": 1}


# -- the Cache hooks, in one process ---------------------------------------------------------

def _key(n: int) -> str:
    return Cache.key({"n": n})


def test_recording_collects_gets_and_puts(tmp_path, monkeypatch):
    monkeypatch.delenv("OKL_NO_CACHE", raising=False)
    monkeypatch.delenv("OKL_CACHE_READONLY", raising=False)
    cache = Cache(tmp_path)
    cache.put("translation", _key(1), {"source": b"one"}, {"n": 1})
    with cache.recording() as entries:
        assert cache.get("translation", _key(1)) == {"source": b"one"}
        assert cache.get("build", _key(2)) is None  # a miss records nothing
        cache.put("build", _key(2), {"lib": b"two"}, {"n": 2})
        monkeypatch.setenv("OKL_CACHE_READONLY", "1")  # not written, still recorded
        assert cache.put("build", _key(3), {"lib": b"three"}, {"n": 3}) is None
    assert entries == [("translation", _key(1), {"source": b"one"}),
                       ("build", _key(2), {"lib": b"two"}),
                       ("build", _key(3), {"lib": b"three"})]
    assert cache.get("build", _key(2)) == {"lib": b"two"}
    assert cache._recorded is None  # nothing kept after the block


def test_overlay_answers_without_the_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("OKL_NO_CACHE", raising=False)
    monkeypatch.delenv("OKL_CACHE_READONLY", raising=False)
    root = tmp_path / "absent"
    cache = Cache(root)
    given = [("build", _key(1), {"lib": b"old"}), ("build", _key(1), {"lib": b"new"})]
    with cache.overlay(given) as stats:
        assert cache.get("build", _key(1)) == {"lib": b"new"}  # the last one wins
        assert cache.get("translation", _key(1)) is None  # falls through: a miss
        cache.put("translation", _key(1), {"source": b"x"}, {"n": 1})
    assert stats == {"hits": 1, "misses": 1, "puts": 1}
    assert not (root / "v1" / "build").exists()  # the overlay never reached the disk
    assert cache.get("build", _key(1)) is None  # and is gone after the block


def test_without_mpi4py_a_clear_error(monkeypatch):
    import okl.mpi

    monkeypatch.setitem(sys.modules, "mpi4py", None)  # import mpi4py raises ImportError
    with pytest.raises(OKLError, match="okl.mpi needs mpi4py"):
        okl.mpi.local_rank(object())


@pytest.mark.parametrize("variable,value", [("OMPI_COMM_WORLD_SIZE", "4"),
                                            ("SLURM_PROCID", "2"),
                                            ("MV2_COMM_WORLD_SIZE", "8")])
def test_a_foreign_launcher_is_refused(variable, value, tmp_path):
    """Started by another MPI's launcher (simulated: its variable set, no mpiexec), mpi4py's
    library sees a world of one: okl.mpi refuses instead of letting each rank solve it all.
    (Variables the pip mpich library itself reads, PMI_* and PMIX_*, make its MPI_Init fail
    before okl runs, so the foreign launchers simulated are those it ignores.)"""
    pytest.importorskip("mpi4py")
    env = {k: v for k, v in os.environ.items()
           if k not in {v for v, _, _ in okl_mpi_variables()}}
    script = ("import okl, okl.mpi\n"
              "from mpi4py import MPI\n"
              "try:\n"
              "    okl.mpi.local_rank(MPI.COMM_WORLD)\n"
              "except okl.mpi.LauncherMismatchError as e:\n"
              "    print('refused:', e)\n"
              "else:\n"
              "    world = MPI.COMM_WORLD\n"
              "    print('ran as rank', world.Get_rank(), 'of', world.Get_size())\n")
    for extra, expected in (({variable: value}, "refused:"), ({}, "ran as rank 0 of 1"),
                            ({variable: "0" if "RANK" in variable or "PROCID" in variable
                              else "1"}, "ran as rank 0 of 1")):
        run = subprocess.run([sys.executable, "-c", script], env={**env, **extra},
                             capture_output=True, text=True, timeout=120, cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        assert run.stdout.startswith(expected), (extra, run.stdout)
        if extra and expected == "refused:":
            assert f"{variable}={value}" in run.stdout and "MPI4PY_LIBMPI" in run.stdout


def okl_mpi_variables():
    import okl.mpi
    return okl.mpi.LAUNCHER_VARIABLES


def test_launched_as_reads_only_clear_numbers():
    import okl.mpi
    assert okl.mpi.launched_as({"PMI_SIZE": "1", "PMI_RANK": "0"}) is None
    assert okl.mpi.launched_as({"OMPI_COMM_WORLD_SIZE": " x"}) is None
    assert okl.mpi.launched_as({"PMI_SIZE": "3"})[::2] == ("PMI_SIZE", 3)
