"""The benchmark harness at tiny sizes on serial, openmp and opencl (pocl): every kernel's
correctness check must pass (timings are not looked at).

Run: python -m pytest benchmarks/test_quick.py   (about 30-50 s on 2 cores, cold caches)
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("OMP_PROC_BIND", "true")
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

EXPECTED_BENCHES = {"stream", "addvectors", "launch", "reduction", "fd2d", "bk5", "edges",
                    "blocksolver", "bk1", "dgvolume", "airfoil",
                    "ins"}


def _opencl_cpu_available() -> bool:
    try:
        import pyopencl as cl
        return any(d.type & cl.device_type.CPU for p in cl.get_platforms()
                   for d in p.get_devices())
    except Exception:
        return False


MODES = ["serial", "openmp",
         pytest.param("opencl", marks=pytest.mark.skipif(
             not _opencl_cpu_available(),
             reason="no CPU OpenCL device (bash scripts/install.sh installs one)"))]


@pytest.mark.parametrize("mode", MODES)
def test_quick_harness_all_correct(mode, tmp_path):
    from benchmarks.runner import run

    doc = run([mode], quick=True, out=str(tmp_path / f"quick-{mode}.json"),
              opencl="cpu")
    assert doc["modes_run"] == [mode], doc["modes_skipped"]
    results = doc["results"]
    bad = [(r.get("bench"), r.get("kernel"), r.get("label"), r.get("check"),
            r.get("check_detail")) for r in results if r.get("check") != "PASS"]
    assert not bad, bad
    okl = [r for r in results if r.get("impl") == "okl"]
    assert {r["bench"] for r in okl} == EXPECTED_BENCHES
    # every stream kernel in both precisions, every BK5 order, both reduction variants
    assert {(r["kernel"], r["precision"]) for r in okl if r["bench"] == "stream"} == {
        (k, p) for k in ("copy", "mul", "add", "triad", "dot") for p in ("fp64", "fp32")}
    assert {r["kernel"] for r in okl if r["bench"] == "bk5"} == {
        f"bk5 N={n}" for n in (3, 5, 7, 9)}
    assert {r["kernel"] for r in okl if r["bench"] == "reduction"} == {"shared", "atomic"}
    if mode == "opencl":  # the hand OpenCL peer runs (and passes) wherever okl opencl does
        hand = [r for r in results if r.get("impl") == "opencl-hand"]
        assert {r["bench"] for r in hand} == EXPECTED_BENCHES
        assert {(r["bench"], r["kernel"], r["precision"]) for r in hand} == {
            (r["bench"], r["kernel"], r["precision"]) for r in okl
            if r["kernel"] != "launch-event-timed"}  # okl's own events: no peer row
    builds = doc["builds"]
    assert builds and all(b["check"] == "PASS" for b in builds), builds
    assert all(not b["cold_cache_hit"] and b["warm_cache_hit"] for b in builds
               if b["mode"] != "opencl"), builds


def test_a_row_is_timed_in_turn():
    """Outside --quick a CPU row's implementations are checked at once and timed together
    when the round ends: calls of both alternate, each gets its repetitions, and a check that
    fails after timing stands as the row's result."""
    from benchmarks.common import Context, Impl, flush, measure

    ctx = Context(modes=["serial"])
    a = Impl("openmp-hand", None, "cpu", "host", device_name="cpu")
    b = Impl("numpy", None, "cpu", "host", device_name="cpu")
    calls: list[str] = []
    state = {"b_ok": True}

    def check_b():
        return state["b_ok"], "b"
    for impl, name, check in ((a, "a", lambda: (True, "a")), (b, "b", check_b)):
        measure(ctx, impl, bench="t", kernel="k", size=1, size_label="1", precision="fp64",
                metric="x/s", work=1.0, call=lambda name=name: calls.append(name),
                check=check, reps=5, warmup=0)
    assert calls == ["a", "b"] and not ctx.results  # checked, not yet timed
    state["b_ok"] = False
    flush(ctx)
    timed = calls[2:-2]  # after the checks, before the two final runs
    assert all(sorted(timed[2 * k:2 * k + 2]) == ["a", "b"] for k in range(5))  # in turns
    results = {r["impl"]: r for r in ctx.results}
    assert results["openmp-hand"]["check"] == "PASS" and results["openmp-hand"]["reps"] == 5
    assert results["numpy"]["check"] == "FAIL"
