"""okl.compare and ``oklc compare``: one kernel on several modes, every array compared."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from modes import requested
from runnable import CASES, case_id, load, okl_file
from test_races import NO_BARRIER

import okl
from okl.cli import main
from okl.comparison import arguments_from_spec

HERE_MODES = list(requested())  # OKL_TEST_MODES, else every mode

# a backend difference by construction: PLANTED is left to the C compiler, whose flags
# differ per Device (see planted())
PLANTED = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 8; ++t; @inner) {
      y[b * 8 + t] = x[b * 8 + t] + (b == 2 && t == 5 ? PLANTED : 0.0f);
    }
  }
}"""


def planted() -> dict:
    return {"serial": okl.Device("serial", compiler_flags=["-DPLANTED=0.0f"]),
            "openmp": okl.Device("openmp", compiler_flags=["-DPLANTED=1.0f"])}

# a real one (the race checker's planted @nobarrier): a thread reads @shared memory another
# has not written yet; serial runs each @inner loop to its end first, a GPU (or PoCL's
# work-item loops) does not
UNSET_SHARED = NO_BARRIER


def test_planted_difference_is_reported_with_its_first_element():
    x = np.arange(32, dtype=np.float32)
    result = okl.compare(PLANTED, "k", [4, x, np.zeros(32, np.float32)],
                         modes=("serial", "openmp"), devices=planted())
    assert not result.ok and not result
    x_result, y_result = result.arrays
    assert x_result.agree and x_result.name == "x"
    assert not y_result.agree and y_result.index == 2 and y_result.differing == 1
    assert y_result.first == ((21,), {"serial": 21.0, "openmp": 22.0})
    assert "argument 3 'y': DIFFERS at y[21] (serial 21.0, openmp 22.0); 1 element differs" \
        in str(result)
    # inputs are copied per mode: the caller's arrays are untouched
    assert np.array_equal(x, np.arange(32, dtype=np.float32))


def test_reading_unset_shared_memory_differs_on_opencl():
    if "opencl" not in HERE_MODES or not _runs("opencl"):
        pytest.skip("mode opencl unavailable here")
    x = np.arange(64, dtype=np.float32) + 1
    result = okl.compare(UNSET_SHARED, "k", [4, x, np.zeros(64, np.float32)],
                         modes=("serial", "opencl"))
    y = result.arrays[1]
    assert not y.agree
    where, values = y.first
    assert values["serial"] == 16 - where[0] % 16 + 16 * (where[0] // 16)


def test_unavailable_mode_is_skipped_not_agreed():
    result = okl.compare(PLANTED, "k", [1, np.ones(8, np.float32), np.zeros(8, np.float32)],
                         modes=("serial", "cuda") if not _runs("cuda") else ("serial",),
                         devices=planted())
    assert not result.ok  # one mode ran: nothing compared
    assert "fewer than two modes ran" in str(result)


def test_unknown_mode_and_missing_file_are_argument_errors():
    with pytest.raises(okl.ArgumentError, match="unknown mode 'metal'"):
        okl.compare(PLANTED, "k", [1, np.ones(8, np.float32), np.zeros(8, np.float32)],
                    modes=("serial", "metal"), devices=planted())
    with pytest.raises(okl.ArgumentError, match="no such kernel file"):
        okl.compare("missing.okl", "k", [])


def _runs(mode: str) -> bool:
    return {b.name: b.available for b in okl.backends()}[mode]


# -- every runnable golden kernel agrees on every mode that runs here -------------------------
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_golden_kernels_agree_across_modes(case):
    modes = [m for m in HERE_MODES if _runs(m)]
    if len(modes) < 2:
        pytest.skip(f"fewer than two modes run here ({modes})")
    ref = load(case)
    path = okl_file(case)
    args = ref.make(np.random.default_rng(1234))
    result = okl.compare(path, ref.KERNEL, args, modes, rtol=getattr(ref, "RTOL", 1e-5),
                         defines=getattr(ref, "DEFINES", None), include_dirs=[path.parent])
    assert result.ok, str(result)
    assert result.modes == modes


# -- the argument spec and the command line ---------------------------------------------------
def test_spec_describes_arrays_and_scalars():
    args = arguments_from_spec({"seed": 3, "args": [
        7, 0.5, {"dtype": "float32", "shape": [2, 3], "fill": "random"},
        {"dtype": "int32", "shape": 4, "fill": "random", "low": 5, "high": 6},
        {"dtype": "int64", "shape": 3, "fill": "arange"}, {"dtype": "float64", "shape": 2},
        {"dtype": "int16", "values": [1, 2]}, {"dtype": "float32", "shape": 2, "fill": 1.5}]})
    assert args[:2] == [7, 0.5]
    assert args[2].shape == (2, 3) and args[2].dtype == np.float32
    assert (args[2] >= 0).all() and (args[2] < 1).all()
    assert args[3].tolist() == [5, 5, 5, 5]
    assert args[4].tolist() == [0, 1, 2] and args[5].tolist() == [0.0, 0.0]
    assert args[6].dtype == np.int16 and args[7].tolist() == [1.5, 1.5]
    again = arguments_from_spec({"seed": 3, "args": [{"dtype": "float32", "shape": [2, 3],
                                                     "fill": "random"}]})
    assert np.array_equal(again[0], arguments_from_spec({"seed": 3, "args": [
        {"dtype": "float32", "shape": [2, 3], "fill": "random"}]})[0])


@pytest.mark.parametrize("spec, says", [
    ({"args": 3}, 'an "args" list'),
    ({"args": ["x"]}, "argument 1 of the spec: give a number or an object"),
    ({"args": [{"dtype": "float32", "shape": -1}]}, "shape must be a count"),
    ({"args": [{"dtype": "float32", "shape": 2, "fill": "noise"}]}, "fill must be"),
    ({"args": [{"dtype": "nonsense", "shape": 2}]}, "dtype 'nonsense'"),
])
def test_bad_spec_is_named(spec, says):
    with pytest.raises(okl.OKLError, match=says):
        arguments_from_spec(spec)


def test_command_line(tmp_path):
    kernel = tmp_path / "k.okl"
    kernel.write_text(PLANTED.replace("PLANTED :", "OFFSET :"))
    spec = tmp_path / "args.json"
    spec.write_text(json.dumps({"args": [4, {"dtype": "float32", "shape": 32,
                                             "fill": "arange"},
                                         {"dtype": "float32", "shape": 32}]}))
    runner = CliRunner()
    same = runner.invoke(main, ["compare", str(kernel), "k", "--args", str(spec), "-m",
                                "serial", "-m", "openmp", "-D", "OFFSET=2.0f", "--races"])
    assert same.exit_code == 0, same.output
    assert "race checker (serial): no race in kernel 'k'" in same.output
    assert "kernel 'k' on serial, openmp" in same.output
    assert "argument 3 'y': agrees" in same.output
    racy = tmp_path / "racy.okl"
    racy.write_text(UNSET_SHARED)
    found = runner.invoke(main, ["compare", str(racy), "k", "-a", json.dumps([
        2, {"dtype": "float32", "shape": 32}, {"dtype": "float32", "shape": 32}]),
        "-m", "serial", "-m", "openmp", "--races"])
    assert found.exit_code == 1
    assert f"race checker (serial): {racy}:8:23: race: s[15] is read here" in found.output
    bad = runner.invoke(main, ["compare", str(kernel), "k", "-a", "{not json"])
    assert bad.exit_code == 1 and "the argument spec is not JSON" in bad.output
