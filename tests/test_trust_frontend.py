"""Front-end defects of issue 32 ("Trust II"), each with a minimal kernel of okl's own:
@exclusive between nested @outer loops, @max_inner_dims as a product over every @inner
nest, diagnostics the backend compilers would otherwise give only at build, @restrict's
placement, files without @kernel, and translation that touches no process-wide state."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest
from frontend_util import analyze, errors

import okl


def _tr(source: str, mode: str, **kw) -> okl.translation.Translation:
    return okl.translate(textwrap.dedent(source), mode, filename="t.okl", **kw)


# -- 1. @exclusive declared in an if / plain loop between nested @outer loops ---------------

EXCLUSIVE_IN_IF = """
@kernel void k(const int n, const float *x, float *y) {
  for (int g = 0; g < n; ++g; @outer(1)) {
    if (g < n) {
      @exclusive float r;
      for (int b = 0; b < 2; ++b; @outer(0)) {
        for (int t = 0; t < 8; ++t; @inner) { r = x[(g * 2 + b) * 8 + t]; }
        for (int t = 0; t < 8; ++t; @inner) { y[(g * 2 + b) * 8 + t] = r; }
      }
    }
  }
}
"""


def test_exclusive_in_if_between_outer_loops_is_sized_per_inner_thread():
    program = analyze(EXCLUSIVE_IN_IF)
    (var,) = program.kernels[0].exclusive
    assert var.slots == 8 and var.outer.iterator == "b"
    assert "float r[8];" in _tr(EXCLUSIVE_IN_IF, "serial").source


def test_exclusive_across_a_plain_loop_of_outer_loops_is_refused_once():
    source = """
    @kernel void k(const int n, const float *x, float *y) {
      for (int g = 0; g < n; ++g; @outer(1)) {
        @exclusive float r;
        for (int s = 0; s < 2; ++s) {
          for (int b = 0; b < 2; ++b; @outer(0)) {
            for (int t = 0; t < 8; ++t; @inner) { r = x[t]; }
          }
        }
      }
    }
    """
    (message,) = errors(source)
    assert "outside a plain loop that holds nested [@outer] loops" in message


# -- 2. @max_inner_dims bounds the product over every @inner loop ----------------------------

def _wider_sibling(limit: str) -> str:
    return f"""
    @kernel void k(const int n, float *y) {{
      for (int b = 0; b < n; ++b; @outer @max_inner_dims({limit})) {{
        for (int j = 0; j < 2; ++j; @inner) {{
          for (int i = 0; i < 3; ++i; @inner) {{ y[b * 10 + j * 5 + i] = 1.0f; }}
          for (int i = 0; i < 5; ++i; @inner) {{ y[b * 10 + j * 5 + i] += 1.0f; }}
        }}
      }}
    }}
    """


def test_max_inner_dims_bounds_every_inner_path_not_the_first():
    (message,) = errors(_wider_sibling("6"))
    assert "5 x 2 = 10 threads per block, at most 6" in message
    assert "__launch_bounds__(10)" in _tr(_wider_sibling("10"), "cuda").source


def test_launch_bounds_come_from_the_largest_block():
    source = _wider_sibling("10").replace(" @max_inner_dims(10)", "")
    assert "__launch_bounds__(10)" in _tr(source, "cuda").source
    assert "reqd_work_group_size(5, 2, 1)" in _tr(source, "opencl").source


def test_max_inner_dims_at_run_time_is_a_product(tmp_path, monkeypatch):
    monkeypatch.setenv("OKL_CACHE_DIR", str(tmp_path))
    path = tmp_path / "k.okl"
    path.write_text("""
    @kernel void k(const int bx, const int by, int *y) {
      for (int b = 0; b < 1; ++b; @outer @max_inner_dims(256)) {
        @exclusive int r;
        for (int j = 0; j < by; ++j; @inner) {
          for (int i = 0; i < bx; ++i; @inner) { r = j * bx + i; }
        }
        for (int j = 0; j < by; ++j; @inner) {
          for (int i = 0; i < bx; ++i; @inner) { y[j * bx + i] = r; }
        }
      }
    }
    """)
    dev = okl.Device("serial")
    kernel = dev.build_kernel(path, "k")
    y = dev.malloc(512, np.int32)
    kernel(np.int32(16), np.int32(16), y)  # 16 x 16 = 256 threads: within the promise
    assert (y.get()[:256] == np.arange(256)).all()
    with pytest.raises(okl.LaunchError, match="16 x 32 = 512 threads"):
        kernel(np.int32(16), np.int32(32), y)
