"""Front-end defects of issue 32 ("Trust II"), each with a minimal kernel of okl's own:
@exclusive between nested @outer loops, @max_inner_dims as a product over every @inner
nest, diagnostics the backend compilers would otherwise give only at build, @restrict's
placement, files without @kernel, and translation that touches no process-wide state."""

from __future__ import annotations

import textwrap

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
