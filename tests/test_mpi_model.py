"""benchmarks/mpi_model.py: the latency/bandwidth fit, the decompositions, the predictions'
shape (what more GPUs must do to each term), agreement with a measured table it is given,
and the probe under a real mpiexec (host mode on serial, tiny repetitions)."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import mpi_model as model

ROOT = Path(__file__).resolve().parents[1]


def test_fit_recovers_latency_and_bandwidth():
    alpha, beta = 8e-6, 150e9
    pingpong = [{"bytes": s, "seconds": alpha + s / beta} for s in model.SIZES]
    f = model.fit(pingpong)
    assert f["alpha_seconds"] == pytest.approx(alpha + 8 / beta)
    assert f["beta_bytes_per_second"] == pytest.approx(beta, rel=1e-3)


def test_decompositions():
    assert model._dims2(1) == (1, 1) and model._dims2(2) == (2, 1)
    assert model._dims2(4) == (2, 2) and model._dims2(8) == (4, 2)
    assert model._dims2(1024) == (32, 32)
    assert sorted(model._dims3(8)) == [2, 2, 2] and sorted(model._dims3(64)) == [4, 4, 4]
    assert math.prod(model._dims3(1024)) == 1024 and max(model._dims3(1024)) <= 16


def _machine(**kw) -> model.Machine:
    base = dict(alpha_intra=10e-6, beta_intra=150e9, ar_a=12e-6, ar_b=3e-6, alpha_inter=3e-6,
                beta_inter=20e9, gpus_per_node=8, t_launch=3e-6, t_pack=6e-6)
    base.update(kw)
    return model.Machine(**base)  # type: ignore[arg-type]


def test_predictions_behave():
    m = _machine()
    w = model.Workload("poisson", 6, 2, 16 / 88, 2e-3 / 8192 ** 2)
    base = model.predict_poisson(m, w, "weak", 8192, 1, 1.0).iteration
    weak = [model.predict_poisson(m, w, "weak", 8192, g, base) for g in (1, 2, 4, 8, 64, 1024)]
    assert weak[0].efficiency == pytest.approx(1.0)
    # weak: the compute stays, the all-reduces grow with log2(G): efficiency never rises
    assert all(a.efficiency >= b.efficiency for a, b in zip(weak, weak[1:], strict=False))
    assert all(p.compute == pytest.approx(weak[0].compute) for p in weak)
    assert weak[-1].nodes == 128 and weak[-1].allreduce > weak[3].allreduce
    # an 8192-point halo row (64 KiB) hides behind 2 ms of interior work inside a node
    assert weak[2].exposed == 0.0 and weak[2].halo > 0
    strong = [model.predict_poisson(m, w, "strong", 8192, g, base) for g in (1, 4, 1024)]
    assert strong[1].efficiency > 0.8 > strong[2].efficiency  # 256^2 points per GPU at 1024
    # a slow network shows up as exposed time off the node, not inside it
    slow = _machine(beta_inter=1e8)
    assert model.predict_poisson(slow, w, "weak", 8192, 4, base).exposed == 0.0
    assert model.predict_poisson(slow, w, "weak", 8192, 64, base).exposed > 0.0
    b5 = model.Workload("BP5", 6, 2, 0.7, 0.9e-3 / 4e6)
    b5_base = model.predict_bp5(m, b5, 1, 4e6, 7, 1.0).iteration
    assert "slabs" in model.predict_bp5(m, b5, 4, 4e6, 7, b5_base).per_gpu
    assert "cubes" in model.predict_bp5(m, b5, 64, 4e6, 7, b5_base).per_gpu


def test_predict_prints_measured_next_to_model(tmp_path, capsys):
    rows = []
    for scaling, side, ranks, ms in (("weak", 8192, 1, 2.0), ("weak", 8192, 4, 2.1),
                                     ("strong", 8192, 1, 2.0), ("strong", 8192, 4, 0.6),
                                     ("strong", 16384, 1, 8.0)):
        n = side if scaling == "strong" else round(side * math.sqrt(ranks))
        rows.append({"scaling": scaling, "series": f"{scaling} {side}", "ranks": ranks,
                     "mode": "cuda", "points": n * n, "seconds_per_iteration": ms * 1e-3})
    scaling = tmp_path / "s.json"
    scaling.write_text(json.dumps({"rows": rows}))
    out = tmp_path / "m.json"
    assert model.main(["predict", "--scaling", str(scaling), "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "inter-node (stated): 200 Gb/s" in text and "ASSUMED" in text
    doc = json.loads(out.read_text())
    weak4 = next(p for p in doc["predictions"] if p["workload"] == "poisson"
                 and p["scaling"] == "weak" and p["gpus"] == 4)
    assert weak4["measured"] == pytest.approx(2.1e-3)
    assert weak4["measured_efficiency"] == pytest.approx(2.0 / 2.1)
    assert {p["gpus"] for p in doc["predictions"]} >= {8, 64, 1024}
    # the compute fit goes through both one-GPU sizes
    one = [p for p in doc["predictions"] if p["gpus"] == 1 and p["workload"] == "poisson"]
    assert {round(p["iteration"] * 1e3, 6) for p in one} == {2.0, 8.0}


def test_probe_under_mpiexec(tmp_path):
    pytest.importorskip("mpi4py", reason="mpi4py is not installed (pip install -e .[test])")
    here = Path(sys.executable).with_name("mpiexec")
    exe = str(here) if here.exists() else shutil.which("mpiexec")
    if exe is None:
        pytest.skip("no mpiexec found (pip install mpich)")
    out = tmp_path / "probe.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT),
                                                                    os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([exe, "-n", "2", sys.executable, "-m", "benchmarks.mpi_model", "probe",
                           "--mode", "serial", "--reps", "4", "--rounds", "1", "--out", str(out)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = json.loads(out.read_text())
    assert doc["exchange"] == "host" and doc["ranks"] == 2
    assert [p["bytes"] for p in doc["pingpong"]] == model.SIZES
    assert all(p["seconds"] > 0 for p in doc["pingpong"])
    assert set(doc["allreduce_seconds"]) == {"2"}
    assert doc["fit"]["alpha_seconds"] > 0 and doc["fit"]["beta_bytes_per_second"] > 0
