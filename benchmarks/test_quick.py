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
