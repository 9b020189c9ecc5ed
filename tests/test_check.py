"""``oklc check``: what every mode's translation reports, for one file or a whole tree, and
the front-end defects found on real application kernels (each a small case of our own)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from modes import device, params

import okl
from okl.check import check_source
from okl.cli import main

ATOMIC_MUL = """\
@kernel void k(float *x) {
  for (int b = 0; b < 4; ++b; @outer) {
    for (int t = 0; t < 4; ++t; @inner) {
      @atomic x[0] *= 2;
    }
  }
}
"""

UNDECLARED = """\
@kernel void k(float *x) {
  for (int b = 0; b < 4; ++b; @outer) {
    for (int t = 0; t < 4; ++t; @inner) {
      float y = t;
      x[t] = y + z_missing;
    }
  }
}
"""

# an @exclusive declared in an @outer loop whose threads live in a nested @outer loop
EXCLUSIVE_NESTED_OUTER = """\
@kernel void k(const int n, float *x) {
  for (int b = 0; b < n; ++b; @outer(1)) {
    @exclusive float r;
    for (int c = 0; c < 3; ++c; @outer(0)) {
      for (int t = 0; t < 8; ++t; @inner) {
        r = b * 100 + c * 10 + t;
      }
      for (int t = 0; t < 8; ++t; @inner) {
        x[(b * 3 + c) * 8 + t] = 2 * r;
      }
    }
  }
}
"""


def test_check_runs_every_mode_and_says_which_modes_refuse():
    result = check_source(ATOMIC_MUL, "mul.okl")
    messages = [d.message for d in result.errors]
    assert any(m.endswith("[cuda, hip]") for m in messages), messages
    assert any(m.endswith("[opencl]") for m in messages), messages
    assert all(d.loc.line == 4 for d in result.errors)
    # narrowed to a CPU mode it passes, as translate does
    assert not check_source(ATOMIC_MUL, "mul.okl", ["serial"]).errors
    okl.translate(ATOMIC_MUL, "serial")


def test_oklc_check_exits_1_on_an_error_in_any_mode(tmp_path):
    path = tmp_path / "mul.okl"
    path.write_text(ATOMIC_MUL)
    r = CliRunner().invoke(main, ["check", str(path)])
    assert r.exit_code == 1 and "[cuda, hip]" in r.stderr
    r = CliRunner().invoke(main, ["check", str(path), "-m", "OpenMP"])
    assert r.exit_code == 0 and r.stdout.startswith(f"{path}: ok"), r.output


@pytest.mark.parametrize("source", ["@kernel foo {}\n", "@kernel void k @outer(int *o) {}\n"])
def test_kernel_that_is_not_a_function_is_a_diagnostic(source):
    with pytest.raises(okl.TranslationError) as err:
        okl.translate(source, "cuda", filename="bad.okl")
    first = err.value.diagnostics[0]
    assert first.loc.line == 1 and "not a function" in first.message
    assert "@kernel void" in first.hint


def test_undeclared_identifier_is_reported_at_its_okl_line():
    result = okl.translate(UNDECLARED, "cuda", filename="u.okl")
    (warning,) = [d for d in result.diagnostics if "undeclared" in d.message]
    assert warning.message == "use of undeclared identifier 'z_missing'"
    assert (warning.loc.line, warning.loc.col) == (5, 18)
    assert "-D z_missing" in warning.hint
    # members, callees, locals, parameters and enum constants are not reported
    fine = UNDECLARED.replace("z_missing", "sqrtf(p.v) + E1 + q.x").replace(
        "float y = t;",
        "float y = t; enum { E1 = 2 }; struct { float v; } p = {1}; float2_t q; q.x = 0;")
    fine = "typedef struct { float x; } float2_t;\n" + fine
    result = okl.translate(fine, "serial")
    assert not [d for d in result.diagnostics if "undeclared" in d.message]


@pytest.mark.parametrize("mode", params(("serial", "openmp", "opencl", "cuda", "hip")))
def test_exclusive_in_an_outer_loop_with_nested_outer_loops(mode):
    dev = device(mode)
    k = dev.build_kernel_from_string(EXCLUSIVE_NESTED_OUTER, "k")
    n = 5
    x = dev.malloc(n * 3 * 8, np.float32)
    k(n, x)
    b, c, t = np.meshgrid(np.arange(n), np.arange(3), np.arange(8), indexing="ij")
    np.testing.assert_array_equal(x.get(), (2 * (b * 100 + c * 10 + t)).ravel())


def test_check_a_tree_with_summary_and_json(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "good.okl").write_text(EXCLUSIVE_NESTED_OUTER)
    (tmp_path / "a" / "b" / "mul.okl").write_text(ATOMIC_MUL)
    (tmp_path / "a" / "b" / "warn.okl").write_text(UNDECLARED)
    (tmp_path / "a" / "notes.txt").write_text("not a kernel")
    r = CliRunner().invoke(main, ["check", "-r", str(tmp_path / "a"), "-j", "2"])
    assert r.exit_code == 1
    assert "3 files: 2 ok (1 with warnings), 1 with errors" in r.stdout
    assert "Atomic does not support this operation on GPU backends" in r.stdout
    r = CliRunner().invoke(main, ["check", "-r", str(tmp_path / "a"),
                                  "--diagnostics-format=json"])
    data = json.loads(r.stdout)
    assert [f["file"].rsplit("/", 1)[1] for f in data["files"]] == ["good.okl", "mul.okl",
                                                                    "warn.okl"]
    assert data["summary"]["with_errors"] == 1 and data["summary"]["ok"] == 2
    assert data["files"][2]["warnings"] == 1
    (diag,) = [d for d in json.loads(r.stderr) if d["file"].endswith("warn.okl")]
    assert diag["line"] == 5 and diag["column"] == 18 and diag["severity"] == "warning"


def test_fuzz_findings_are_located_diagnostics():
    """Two inputs the fuzzer found: a K&R parameter without a type (was an AttributeError)
    and `#line N ""` (diagnostics lost their file name)."""
    kr = "@kernel void k(fl) {\n  for (int b = 0; b < 4; ++b; @outer) {\n" \
         "    for (int t = 0; t < 4; ++t; @inner) fl[t] = 0;\n  }\n}\n"
    for mode in ("serial", "openmp", "opencl", "cuda", "hip"):
        with pytest.raises(okl.TranslationError) as err:
            okl.translate(kr, mode, filename="kr.okl")
        assert str(err.value).startswith("kr.okl:1:16: error: kernel argument 'fl' has no type")
    unnamed = '#line 3 ""\n' + ATOMIC_MUL.replace("x[0] *= 2;", "x[0] = 2")
    with pytest.raises(okl.TranslationError) as err:
        okl.translate(unnamed, "serial", filename="unnamed.okl")
    assert all(d.loc.file == "unnamed.okl" for d in err.value.diagnostics)


def test_a_line_marker_name_with_a_newline_stays_on_one_line():
    source = ('@kernel void k(float *x) {\n  for (int b = 0; b < 4; ++b; @outer) {\n'
              '#line 1 "x\\n"\n    for (int t = 0; t < 4; ++t; @inner) x[t] = 0;\n  }}\n}\n')
    with pytest.raises(okl.TranslationError) as err:
        okl.translate(source, "cuda", filename="nl.okl")
    first = str(err.value).splitlines()[0]
    assert first.startswith("x\\n:3:1: error: syntax error: unmatched '}'"), first
