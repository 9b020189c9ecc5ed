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
import sys
from pathlib import Path

import mpirun
import numpy as np
import pytest
from modes import skip_unless_available

import okl

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "distributed" / "poisson.py"
TIMEOUT = 90  # seconds per mpiexec job (they take 1-4 s; first builds and a busy CI take more)
N = 48


_mpiexec = mpirun.mpiexec


def _run(tmp_path: Path, ranks: int, args: list[str], script: list[str] | None = None,
         env_extra: dict | None = None):
    """mpiexec -n RANKS python poisson.py ARGS --json REPORT; (exit code, output, report)."""
    report = tmp_path / "report.json"
    cmd = [_mpiexec(), "-n", str(ranks), sys.executable, *(script or [str(EXAMPLE)]),
           *args, "--json", str(report)]
    env = dict(os.environ, **(env_extra or {}))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.pop("OMP_NUM_THREADS", None)  # the example divides the cores between the ranks
    rc, out = mpirun.run(cmd, env=env, cwd=tmp_path, timeout=TIMEOUT)
    data = json.loads(report.read_text()) if report.exists() else None
    return rc, out, data


CASES = [  # (mode, ranks, extra arguments)
    ("serial", 1, []),
    ("serial", 2, []),                                # 2x1: rows only, straight from memory
    ("serial", 4, []),                                # 2x2: rows and packed columns
    ("serial", 2, ["--dims", "1x2", "--exchange", "host"]),  # columns only
    ("serial", 4, ["--dims", "1x4", "--residual-every", "1"]),  # a middle block: 2 columns
    ("openmp", 1, []),
    ("openmp", 2, ["--dims", "1x2"]),
    ("openmp", 4, ["--exchange", "host"]),
    ("opencl", 2, []),                                # auto: host staging
    ("opencl", 4, []),                                # staged rows and columns
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
    # CPU modes hand their memory to MPI as it is; opencl stages through host buffers
    assert report["exchange"] == "host", report["exchange_reason"]
    assert ("staged" if mode == "opencl" else "no copy") in report["exchange_reason"]
    full = report["seconds_per_iteration"]
    assert report["exposed_exchange_seconds_per_iteration"] == pytest.approx(
        max(0.0, full - report["compute_seconds_per_iteration"]))
    for row in report["per_rank"]:
        assert row["seconds_per_iteration"] > 0 and row["gbps"] > 0
        for part in ("compute", "exchange", "exposed_exchange", "allreduce"):
            assert row[f"{part}_seconds_per_iteration"] >= 0, part
        assert row["exposed_exchange_seconds_per_iteration"] <= row["seconds_per_iteration"]
        assert (row["halo_bytes"] > 0) == (ranks > 1)
        assert (row["exchange_seconds_per_iteration"] > 0) == (ranks > 1)
    assert "exposed" in report["timing"]


def test_gpu_exchange_modes_are_refused_on_a_cpu(tmp_path):
    """--exchange nccl on serial: every rank gets the same CommunicatorError, the program
    says why and exits 2 (no rank waits in a collective, no traceback)."""
    rc, out, report = _run(tmp_path, 2, ["--mode", "serial", "--n", str(N),
                                         "--exchange", "nccl"])
    assert rc == 2, out
    assert "needs a cuda or hip device" in out and "Traceback" not in out
    assert report is None


# One stale halo: on rank 1, the 5th exchange runs (so the ranks stay in step) but its
# received halo rows are then put back to the previous iteration's values, as if an old message had
# been reused.  The one-rank reference has no neighbours and is untouched; the distributed
# answer then differs from it by far more than check_tolerance (6e-3 against 2.1e-11 at this
# size), though CG's
# recurrence residual still says it converged.
STALE_ONCE = """
import sys
sys.path.insert(0, {folder!r})
import poisson
real = poisson.Halo.finish
calls = {{"n": 0}}

def finish(self):
    calls["n"] += 1 if self.recvs else 0
    if self.comm.rank != 1 or calls["n"] != 5:
        return real(self)
    old = [buf.get() for _, buf in self.recvs]
    event = real(self)
    event.finish()
    for (_, buf), values in zip(self.recvs, old, strict=True):
        buf.copy_from(values)
    return event

poisson.Halo.finish = finish
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
    """The question that keeps okl.mpi.Communicator's auto mode from handing a device pointer
    to an MPI that would crash on it: answered by the MPI library mpi4py loaded (the PyPI
    mpich wheel says no; a CUDA-aware MPICH or Open MPI says yes), never by a guess."""
    pytest.importorskip("mpi4py", reason="mpi4py is not installed (pip install -e .[test])")
    from mpi4py import MPI

    import okl.mpi
    mpich = MPI.Get_library_version().startswith("MPICH")
    for gpu in ("cuda", "hip"):
        aware, how = okl.mpi.mpi_gpu_support(gpu)
        assert isinstance(aware, bool)
        if mpich and not hasattr(MPI, "Query_cuda_support"):  # MPICH >= 4 has the query
            assert how.startswith(f"MPIX_GPU_query_support({gpu}) = "), how
        else:
            assert "MPI" in how or "no libmpi" in how, how


# -- okl.mpi.Communicator under real mpiexec ---------------------------------------------------
# One job per rank count runs every check on every rank and writes what it saw to
# OUT/<mode>-<rank>.json; the test reads them.  Host mode only can run here (serial: memory
# to MPI directly; opencl: staged through host buffers); the nccl and mpi-device paths are
# checked on a GPU machine (.devrun/gpu33.sh runs this file with OKL_TEST_MODES=cuda).
COMMUNICATOR = """
import json, os, sys
import numpy as np
from mpi4py import MPI
import okl, okl.mpi

out, modes, how = sys.argv[1], sys.argv[2].split(","), sys.argv[3]
world = MPI.COMM_WORLD
rank, size = world.rank, world.size

def refused(kind, call):
    try:
        call()
    except kind as e:
        return str(e)
    return None

for mode in modes:
    seen = {}
    if mode in ("cuda", "hip"):  # one GPU per rank, round-robin
        import cupy
        gpu = okl.mpi.local_rank(world) % cupy.cuda.runtime.getDeviceCount()
        dev, other = okl.Device(mode, device_id=gpu), okl.Device(mode, device_id=gpu)
        seen["gpus"] = len(set(world.allgather(cupy.cuda.Device(gpu).pci_bus_id)))
    else:
        dev, other = okl.Device(mode), okl.Device(mode)
    stream = dev.stream()
    with okl.mpi.Communicator(world, dev, mode=how) as c:
        seen["mode"], seen["reason"] = c.mode, c.reason
        seen["rank"], seen["size"] = c.rank, c.size
        # all-reduces: in place, on allocations and views, each op, integer dtypes
        a = dev.asarray(np.array([rank + 1.0, -rank, 2.0 ** rank, 7.0]))
        c.allreduce(a)
        c.allreduce(a[1:3], "max", stream=stream)
        stream.finish()
        seen["sum_then_max"] = a.get().tolist()
        m = dev.asarray(np.array([10 - rank, rank], np.int32))
        c.allreduce(m, "min")
        seen["min_int32"] = m.get().tolist()
        u = dev.asarray(np.array([rank], np.uint64))
        c.allreduce(u[0:1], "sum")
        seen["sum_uint64"] = u.get().tolist()
        # many in a row, on two streams in turn, each on the one before's result (a peer
        # kernel's boxes are reused every second call)
        chain, other_stream = dev.asarray(np.array([1.0, rank])), dev.stream()
        for i in range(40):
            c.allreduce(chain, "max" if i % 4 == 3 else "sum",
                        stream=stream if i % 3 else other_stream)
        stream.finish()
        other_stream.finish()
        seen["chain"] = chain.get().tolist()
        # folded (out=): a dot's per-block partial sums summed, then summed over the ranks
        parts = dev.asarray(np.arange(300.0) + rank)
        total = dev.zeros(1)
        c.allreduce(parts, out=total, stream=stream)
        top = dev.asarray(np.array([3, 9 + rank, -4], np.int32))
        most = dev.zeros(1, np.int32)
        c.allreduce(top, "max", out=most, stream=stream)
        stream.finish()
        seen["fold"] = [total.get().tolist(), most.get().tolist(), parts.get()[:2].tolist()]
        # exchange: a ring both ways, two messages to each peer (matched in order), a view
        # of a larger buffer, one message to this rank itself, mixed dtypes
        right, left = (rank + 1) % size, (rank - 1) % size
        big = dev.asarray(np.arange(10.0) + 100 * rank)
        first = dev.asarray(np.full(3, rank, np.int64))
        second = dev.asarray(np.array([rank * 1.5, -rank * 1.5], np.float32))
        me = dev.asarray(np.array([rank, rank], np.int16))
        got_first, got_second = dev.zeros(3, np.int64), dev.zeros(2, np.float32)
        got_view = dev.zeros(6, np.float64)
        got_me = dev.zeros(2, np.int16)
        h = c.exchange([(right, first), (right, second), (left, big[2:5]), (rank, me)],
                       [(left, got_first), (left, got_second), (right, got_view[1:4]),
                        (rank, got_me)], stream=stream)
        h.wait()
        h.wait()  # a second wait does nothing
        seen["wait_event"] = h.event is not None
        stream.wait(h.event)
        stream.finish()
        seen["ring"] = [got_first.get().tolist(), got_second.get().tolist(),
                        got_view.get().tolist(), got_me.get().tolist()]
        # again, with the staging buffers reused, no stream given
        first.copy_from(np.full(3, rank + 50, np.int64))
        c.exchange([(right, first)], [(left, got_first)]).wait()
        dev.finish()
        seen["again"] = got_first.get().tolist()
        # cuda: an all-reduce and an exchange (with peers the ring above reached)
        # captured once in a CUDA graph (okl.Graph) and launched five times: each launch
        # adds and moves anew (the peers' sequence numbers live on the device, NCCL's calls
        # are captured as queued); a first NCCL all-reduce is refused inside a capture on
        # every rank (NCCL connects on first use), and the capture ends cleanly
        if mode == "cuda" and c.mode == "nccl":
            g_first = dev.zeros(17)  # beyond the peers' 16 values: NCCL's all-reduce
            g_stream = dev.stream()

            def capture_first():
                with g_stream.capture():
                    c.allreduce(g_first, stream=g_stream)
            if "other GPUs' memory" in c.reason:  # no NCCL all-reduce ran before
                seen["first_capture"] = refused(okl.mpi.CommunicatorError, capture_first)
            g_sum = dev.asarray(np.array([1.0, rank]))
            g_send = dev.asarray(np.array([float(rank)]))
            g_got = dev.zeros(1)
            g_parts, g_dot = dev.asarray(np.arange(40.0) + rank), dev.zeros(1)
            with g_stream.capture() as graph:
                c.allreduce(g_sum, stream=g_stream)
                c.allreduce(g_parts, out=g_dot, stream=g_stream)
                c.exchange([((rank + 1) % size, g_send)], [((rank - 1) % size, g_got)],
                           stream=g_stream).wait()
            for _ in range(5):
                graph.launch(g_stream)
            g_stream.finish()
            seen["graph"] = [g_sum.get().tolist(), g_got.get().tolist(), g_dot.get().tolist()]
        # refusals, each an okl error naming the argument, none collective
        seen["errors"] = {
            "peer": refused(okl.ArgumentError, lambda: c.exchange([(size, first)], [])),
            "negative": refused(okl.ArgumentError, lambda: c.exchange([], [(-1, first)])),
            "device": refused(okl.ArgumentError,
                              lambda: c.exchange([(right, other.zeros(3))], [])),
            "numpy": refused(okl.ArgumentError, lambda: c.allreduce(np.zeros(3))),
            "op": refused(okl.ArgumentError, lambda: c.allreduce(a, "prod")),
            "dtype": refused(okl.ArgumentError, lambda: c.allreduce(me)),
            "self_size": refused(okl.ArgumentError,
                                 lambda: c.exchange([(rank, first)], [(rank, got_second)])),
            "self_count": refused(okl.ArgumentError, lambda: c.exchange([(rank, first)], [])),
            "pair": refused(okl.ArgumentError, lambda: c.exchange([first], [])),
            "fold_overlap": refused(okl.ArgumentError,
                                    lambda: c.allreduce(parts, out=parts[3:4])),
            "fold_size": refused(okl.ArgumentError, lambda: c.allreduce(parts, out=chain)),
            "fold_dtype": refused(okl.ArgumentError, lambda: c.allreduce(parts, out=most)),
            "stream": refused(okl.ArgumentError,
                              lambda: c.allreduce(a, stream=other.stream())),
        }
        freed = dev.zeros(2)
        freed.free()
        seen["errors"]["freed"] = refused(okl.ArgumentError, lambda: c.allreduce(freed))
    seen["closed"] = refused(okl.mpi.CommunicatorError, lambda: c.allreduce(a))
    if "graph" in seen:  # released by close(), before NCCL's communicator (which waits for it)
        seen["graph_closed"] = refused(okl.ArgumentError, lambda: graph.launch(g_stream))
    seen["bad_mode"] = refused(okl.ArgumentError,
                               lambda: okl.mpi.Communicator(world, dev, mode="gpu"))
    # collective refusals: the same error on every rank, nobody left waiting
    seen["nccl_here"] = None if mode in ("cuda", "hip") else refused(
        okl.mpi.CommunicatorError, lambda: okl.mpi.Communicator(world, dev, mode="nccl"))
    seen["disagree"] = refused(okl.mpi.CommunicatorError, lambda: okl.mpi.Communicator(
        world, dev, mode="host" if rank == 0 else "auto"))
    with okl.mpi.Communicator(world, dev, mode="host") as h:
        seen["host_mode"] = h.mode
    with open(os.path.join(out, f"{mode}-{rank}.json"), "w") as f:
        json.dump(seen, f)
"""


COMMUNICATOR_CASES = [  # (device modes, Communicator mode asked for, mode expected, peers)
    (("serial", "opencl"), "auto", "host", ""),
    pytest.param(("cuda",), "nccl", "nccl", "", marks=pytest.mark.gpu),
    pytest.param(("cuda",), "host", "host", "", marks=pytest.mark.gpu),
    pytest.param(("cuda",), "auto", None, "", marks=pytest.mark.gpu),  # whatever works
    # small all-reduces through peer memory even where ranks share a GPU (their kernels take
    # turns): the peer kernel checked on a machine with fewer GPUs than ranks
    pytest.param(("cuda",), "host", "host", "1", marks=pytest.mark.gpu),
]


@pytest.mark.parametrize("ranks", [2, 4])
@pytest.mark.parametrize("modes, asked, expected, peers", COMMUNICATOR_CASES,
                         ids=["cpu-auto", "cuda-nccl", "cuda-host", "cuda-auto",
                              "cuda-host-peers"])
def test_communicator(tmp_path, ranks, modes, asked, expected, peers):
    """okl.mpi.Communicator on every path this machine has: host mode on serial (memory to
    MPI directly) and opencl (staged); on a GPU machine (OKL_TEST_MODES=cuda) nccl, host
    staging through pinned buffers, and auto, each with its small all-reduces through the
    other GPUs' memory where each rank has a GPU of its own (or OKL_MPI_PEERS=1 says so)."""
    available = {b.name: b for b in okl.backends()}
    if any(m in ("cuda", "hip") for m in modes):
        for m in modes:
            skip_unless_available(m)
    modes = tuple(m for m in modes if available[m].available)
    if asked == "nccl":
        import cupy
        if cupy.cuda.runtime.getDeviceCount() < ranks:
            pytest.skip(f"NCCL takes one GPU per rank: {ranks} ranks on "
                        f"{cupy.cuda.runtime.getDeviceCount()} GPUs")
    script = tmp_path / "communicator.py"
    script.write_text(COMMUNICATOR)
    rc, out, _ = _run(tmp_path, ranks, [str(tmp_path), ",".join(modes), asked],
                      script=[str(script)], env_extra={"OKL_MPI_PEERS": peers})
    assert rc == 0, out
    for mode in modes:
        for rank in range(ranks):
            seen = json.loads((tmp_path / f"{mode}-{rank}.json").read_text())
            assert (seen["rank"], seen["size"]) == (rank, ranks)
            if expected is not None:
                assert seen["mode"] == expected, seen["reason"]
            assert seen["reason"]
            if seen["mode"] == "host":
                assert ("no copy" if mode in ("serial", "openmp") else "staged") \
                    in seen["reason"]
            total = sum(2.0 ** r for r in range(ranks))
            n = ranks
            sums = [n * (n + 1) / 2, -n * (n - 1) / 2, total, 7.0 * n]
            assert seen["sum_then_max"] == sums  # max of equal values leaves the sums
            assert seen["min_int32"] == [10 - (n - 1), 0]
            assert seen["sum_uint64"] == [n * (n - 1) // 2]
            want = [1.0, float(rank)]
            for i in range(40):
                want = [max(v, v) if i % 4 == 3 else n * v for v in want] if i else \
                    [n * 1.0, n * (n - 1) / 2]
            assert seen["chain"] == want
            assert seen["fold"] == [[n * 44850.0 + 300 * n * (n - 1) / 2], [9 + n - 1],
                                    [rank, rank + 1.0]]
            if mode == "cuda" and seen["mode"] == "nccl":  # five launches of one capture
                if "other GPUs' memory" in seen["reason"]:  # no NCCL all-reduce before it
                    assert "first all-reduce cannot be captured" in seen["first_capture"]
                assert seen["graph"] == [[float(n) ** 5, n ** 4 * n * (n - 1) / 2],
                                         [float((rank - 1) % n)],
                                         [n * 780.0 + 40 * n * (n - 1) / 2]]
                assert "Communicator whose calls it captured is closed" in \
                    seen["graph_closed"]
            if mode == "cuda":  # (hip: never through peer memory)
                through = "through the other GPUs' memory" in seen["reason"]
                assert through == (seen["gpus"] == n or peers == "1"), seen["reason"]
                if not through and seen["gpus"] < n:
                    assert "share a GPU" in seen["reason"]
            left, right = (rank - 1) % n, (rank + 1) % n
            assert seen["ring"] == [
                [left] * 3, [left * 1.5, -left * 1.5],
                [0.0, 100 * right + 2, 100 * right + 3, 100 * right + 4, 0.0, 0.0],
                [rank, rank]]
            assert seen["again"] == [left + 50] * 3
            assert seen["wait_event"]
            errors = seen["errors"]
            assert all(errors.values()), errors
            assert f"peer {ranks} is out of range" in errors["peer"]
            assert "peer -1 is out of range" in errors["negative"]
            assert "another device" in errors["device"]
            assert "okl.Memory" in errors["numpy"]
            assert "'prod'" in errors["op"] and "int16" in errors["dtype"]
            assert "24 bytes" in errors["self_size"] and "8" in errors["self_size"]
            assert "1 send(s) to this rank itself" in errors["self_count"]
            assert "freed" in errors["freed"] and "pair" in errors["pair"]
            assert "must not overlap" in errors["fold_overlap"]
            assert "one value of mem's dtype" in errors["fold_size"]
            assert "float64" in errors["fold_dtype"]
            assert "stream" in errors["stream"]
            assert "closed" in seen["closed"]
            assert "'gpu'" in seen["bad_mode"]
            if mode not in ("cuda", "hip"):
                assert "needs a cuda or hip device" in seen["nccl_here"]
            assert "rank 1 asked for mode 'auto'" in seen["disagree"]
            assert seen["host_mode"] == "host"


def test_fold_is_one_ranks_part_of_a_folded_allreduce():
    """okl.mpi.fold: the op of a Memory's values into a one-value Memory, without MPI (what
    Communicator.allreduce(out=) does on each rank before summing over the ranks, and what a
    compute-only timing does alone); misuse is an okl.ArgumentError naming the argument."""
    import okl.mpi
    dev = okl.Device("serial")
    parts, out = dev.asarray(np.arange(10.0)), dev.zeros(1)
    okl.mpi.fold(parts, out=out)
    assert out.get().tolist() == [45.0]
    okl.mpi.fold(parts[2:7], "max", stream=dev.stream(), out=out)
    assert out.get().tolist() == [6.0]
    ints, low = dev.asarray(np.array([4, -3, 8], np.int32)), dev.zeros(1, np.int32)
    okl.mpi.fold(ints, "min", out=low)
    assert low.get().tolist() == [-3]
    with pytest.raises(okl.ArgumentError, match="must not overlap"):
        okl.mpi.fold(parts, out=parts[9:10])
    with pytest.raises(okl.ArgumentError, match="'prod'"):
        okl.mpi.fold(parts, "prod", out=out)
    with pytest.raises(okl.ArgumentError, match="mem must be a live okl.Memory"):
        okl.mpi.fold(np.zeros(3), out=out)
    with pytest.raises(okl.ArgumentError, match="one value of mem's dtype"):
        okl.mpi.fold(parts, out=dev.zeros(2))
    with pytest.raises(okl.ArgumentError, match="at least one value"):
        okl.mpi.fold(parts[0:0], out=out)
