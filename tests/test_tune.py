"""Device.tune and ``oklc tune``: variants built from a space of defines, each run on its own
copies, checked against the first, timed, the winner kept in the cache (okl.runtime.tune).

Serial mode, tiny kernels and few variants: what is tested is the tuner's bookkeeping, not
which variant is fastest (on a shared machine that is noise)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import okl
from okl.cli import main

# covers 0..n only when p_B divides n: a define that changes the answer (the tail is lost)
TAIL = """#if p_B > 256
#error "p_B must be at most 256"
#endif
#include "factor.h"
@kernel void scale(const int n, const float *x, float *y) {
  for (int b = 0; b < n / p_B; ++b; @outer) {
    for (int t = 0; t < p_B; ++t; @inner) {
      y[b * p_B + t] = FACTOR * x[b * p_B + t];
    }
  }
}
"""
# adds into y: a second launch on the same copy would change the answer
ACCUMULATE = """@kernel void acc(const int n, const float *x, float *y) {
  for (int b = 0; b < (n + p_BX * p_BY - 1) / (p_BX * p_BY); ++b; @outer) {
    for (int t = 0; t < p_BX * p_BY; ++t; @inner) {
      const int i = b * p_BX * p_BY + t;
      if (i < n) y[i] += x[i];
    }
  }
}
"""


@pytest.fixture(scope="module")
def kernels(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("tune")
    (folder / "scale.okl").write_text(TAIL)
    (folder / "factor.h").write_text("#define FACTOR 2.0f\n")
    (folder / "acc.okl").write_text(ACCUMULATE)
    return folder


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture()
def dev(cache_dir: Path) -> okl.Device:
    return okl.Device("serial", cache_dir=str(cache_dir))


def _scale_args(n: int = 96):
    return [n, np.arange(n, dtype=np.float32), np.zeros(n, np.float32)]


def test_every_variant_is_checked_and_timed_and_the_fastest_returned(dev, kernels):
    k = dev.tune(kernels / "scale.okl", "scale", {"p_B": [32, 16]}, _scale_args(),
                 repeat=5, force=True)
    result = k.tuning
    assert isinstance(k, okl.Kernel) and not result.from_cache
    assert [v.point for v in result.table] == [{"p_B": 32}, {"p_B": 16}]
    # 5 launches each; twice as many where both are within 10 % (timed again), or neither
    assert all(v.status == "ok" and v.seconds > 0 and v.launches in (5, 10)
               for v in result.table)
    assert len({v.launches for v in result.table}) == 1
    fastest = min(result.table, key=lambda v: v.seconds)
    assert result.best == fastest.point and result.seconds == fastest.seconds
    assert result.defines == result.best
    x, y = np.arange(96, dtype=np.float32), np.zeros(96, np.float32)
    k(96, x, y)  # the tuned kernel is built with the winner's defines
    assert np.array_equal(y, 2 * x)
    text = str(result)
    assert f"best: p_B={result.best['p_B']}" in text and "2 of 2 variants timed" in text
    assert json.loads(json.dumps(result.to_json()))["best"] == result.best


def test_variants_run_on_copies_and_the_callers_arrays_are_untouched(dev, kernels):
    x = np.arange(40, dtype=np.float32)
    y_host = np.ones(40, np.float32)
    y = dev.asarray(y_host.copy())  # okl.Memory is copied too
    space = {"p_BX": [4, 8], "p_BY": [1, 2]}
    k = dev.tune(kernels / "acc.okl", "acc", space, [40, x, y], repeat=3, force=True,
                 constraint=lambda p: p["p_BX"] * p["p_BY"] <= 8)
    table = k.tuning.table
    assert [v.point for v in table] == [{"p_BX": 4, "p_BY": 1}, {"p_BX": 4, "p_BY": 2},
                                        {"p_BX": 8, "p_BY": 1}]
    # one variant's y += x fed into the next would make the next one differ
    assert [v.status for v in table] == ["ok"] * 3, str(k.tuning)
    assert np.array_equal(y.get(), y_host) and np.array_equal(x, np.arange(40))


def test_a_variant_that_computes_something_else_is_excluded(dev, kernels, caplog):
    with caplog.at_level(logging.WARNING, logger="okl"):
        k = dev.tune(kernels / "scale.okl", "scale", {"p_B": [32, 64, 16]}, _scale_args(),
                     repeat=3, force=True)
    status = {v.point["p_B"]: v for v in k.tuning.table}
    assert status[64].status == "differs" and status[64].seconds is None
    assert "'y' differs at element 64" in status[64].reason  # 96 = 64 + a lost tail of 32
    assert "reference: p_B=32" in status[64].reason
    assert k.tuning.best != {"p_B": 64}
    assert any("p_B=64 excluded" in r.getMessage() for r in caplog.records)


def test_variants_that_fail_are_skipped_and_all_failing_is_an_error(dev, kernels):
    k = dev.tune(kernels / "scale.okl", "scale", {"p_B": [512, 32]}, _scale_args(),
                 repeat=3, force=True)
    failed, ok = k.tuning.table
    assert failed.status == "failed" and failed.reason.startswith("build: TranslationError")
    assert "p_B must be at most 256" in failed.reason
    assert ok.status == "ok" and k.tuning.best == {"p_B": 32}
    with pytest.raises(okl.OKLError, match="no variant of scale ran; each failed with "
                                           "build: TranslationError.*at most 256"):
        dev.tune(kernels / "scale.okl", "scale", {"p_B": [512, 1024]}, _scale_args())
    with pytest.raises(okl.OKLError, match=r"no variant of scale ran \(p_B=512: failed "
                                           r"\(build: .*\); p_B=32: failed \(launch: "
                                           "ArgumentError: kernel 'scale' takes 3 arguments"):
        dev.tune(kernels / "scale.okl", "scale", {"p_B": [512, 32]}, [96])


@pytest.mark.parametrize(("space", "kw", "message"), [
    ({}, {}, "space must be a non-empty dict"),
    ([("p_B", [1])], {}, "space must be a non-empty dict"),
    ({"p_B": []}, {}, r"space\['p_B'\] is empty"),
    ({"p_B": "32,64"}, {}, r"space\['p_B'\] must be a list of values"),
    ({"p_B": 32}, {}, r"space\['p_B'\] must be a list of values"),
    ({"p_B": [32, None]}, {}, r"space\['p_B'\] holds None"),
    ({"p_B": [32, 32]}, {}, "lists 32 more than once"),
    ({"1B": [32]}, {}, "space key '1B' is not a define name"),
    ({"p_B": [32]}, {"defines": {"p_B": 16}}, "p_B is both in space and in defines"),
    ({"p_B": [32]}, {"constraint": lambda p: False}, "constraint rejects every point"),
    ({"p_B": [32]}, {"constraint": 3}, "constraint must be a function"),
    ({"p_B": [32]}, {"repeat": 0}, "repeat must be a count >= 1"),
    ({"p_B": [32]}, {"rtol": -1.0}, "rtol must be a number >= 0"),
    ({"p_B": [32]}, {"args": "96"}, "args must be a list or tuple"),
])
def test_bad_input_is_a_clear_error_naming_the_argument(dev, kernels, space, kw, message):
    args = kw.pop("args", _scale_args())
    with pytest.raises(okl.ArgumentError, match=message):
        dev.tune(kernels / "scale.okl", "scale", space, args, **kw)


_SECOND = """
import sys, numpy as np, okl
dev = okl.Device("serial")
n = 96
k = dev.tune(sys.argv[1], "scale", {"p_B": [16, 32]},
             [n, np.arange(n, dtype=np.float32), np.zeros(n, np.float32)], repeat=3)
print(k.tuning.from_cache, k.tuning.best["p_B"], k.tuning.key)
"""


def test_the_winner_is_reused_by_the_next_process_until_forced(kernels, cache_dir):
    # the module's cache (builds done already); no other test tunes this space
    env = {**os.environ, "OKL_CACHE_DIR": str(cache_dir), "OKL_VERBOSE": "1"}
    path = str(kernels / "scale.okl")
    runs = [subprocess.run([sys.executable, "-c", _SECOND, path], env=env, text=True,
                           capture_output=True, timeout=120) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr + runs[1].stderr
    (cached0, best0, key0), (cached1, best1, key1) = (r.stdout.split() for r in runs)
    assert (cached0, cached1) == ("False", "True") and best0 == best1 and key0 == key1
    assert "median" in runs[0].stderr and "median" not in runs[1].stderr  # nothing timed
    assert f"tuning cache hit {key1[:12]}" in runs[1].stderr
    dev = okl.Device("serial", cache_dir=str(cache_dir))
    again = dev.tune(path, "scale", {"p_B": [16, 32]}, _scale_args(), repeat=3, force=True)
    assert not again.tuning.from_cache and again.tuning.key == key0
    # another problem size is another question
    other = dev.tune(path, "scale", {"p_B": [16, 32]}, _scale_args(64), repeat=3)
    assert not other.tuning.from_cache and other.tuning.key != key0
    assert dev.tune(path, "scale", {"p_B": [16, 32]}, _scale_args(64)).tuning.from_cache


def test_an_edited_include_makes_the_stored_winner_stale(kernels, tmp_path):
    folder = tmp_path / "k"
    folder.mkdir()
    (folder / "scale.okl").write_text(TAIL)
    (folder / "factor.h").write_text("#define FACTOR 2.0f\n")
    tune = dict(space={"p_B": [32, 16]}, args=_scale_args(), repeat=3)
    dev = okl.Device("serial", cache_dir=str(tmp_path / "cache"))
    assert not dev.tune(folder / "scale.okl", "scale", **tune).tuning.from_cache
    assert dev.tune(folder / "scale.okl", "scale", **tune).tuning.from_cache
    (folder / "factor.h").write_text("#define FACTOR 3.0f /* changed */\n")
    k = dev.tune(folder / "scale.okl", "scale", **tune)
    assert not k.tuning.from_cache
    x, y = np.arange(96, dtype=np.float32), np.zeros(96, np.float32)
    k(96, x, y)
    assert np.array_equal(y, 3 * x)


def test_oklc_tune_prints_the_table_and_json_and_the_cache_counts_it(kernels, tmp_path,
                                                                     monkeypatch):
    monkeypatch.setenv("OKL_CACHE_DIR", str(tmp_path))
    spec = json.dumps([96, {"dtype": "float32", "shape": 96, "fill": "random"},
                       {"dtype": "float32", "shape": 96}])
    runner = CliRunner()
    base = ["tune", str(kernels / "scale.okl"), "scale", "-m", "serial", "--args", spec,
            "--repeat", "3"]
    text = runner.invoke(main, base + ["--space", "p_B=32,64,512"])
    assert text.exit_code == 0, text.output
    assert "kernel 'scale' on serial" in text.output and "best: p_B=32" in text.output
    assert "differs: 'y' differs at element 64" in text.output
    assert "failed: build: TranslationError" in text.output
    doc = runner.invoke(main, base + ["--space", "p_B=32,64,512", "--diagnostics-format",
                                      "json"])
    assert doc.exit_code == 0, doc.output
    data = json.loads(doc.stdout)
    assert data["best"] == {"p_B": 32} and data["from_cache"] is True
    assert [v["status"] for v in data["table"]] == ["ok", "differs", "failed"]
    info = runner.invoke(main, ["cache", "info"])
    assert "tuning: 1 entries" in info.output
    assert runner.invoke(main, ["cache", "clear"]).exit_code == 0
    assert "tuning: 0 entries" in runner.invoke(main, ["cache", "info"]).output
    for bad, message in ((["--space", "p_B"], "--space 'p_B': expected NAME=V1,V2"),
                         (["--space", "p_B=1", "--space", "p_B=2"], "p_B is given twice"),
                         (["--space", "p_B=16", "-D", "p_B=8"], "p_B is both in space")):
        r = runner.invoke(main, base + bad)
        assert r.exit_code == 1 and "oklc: error: " in r.output and message in r.output, \
            r.output
