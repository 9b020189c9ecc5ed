"""cpu.collapse: a 2-D @inner plane whose rows are not whole 4-wide vectors, and whose body
names its threads only by their row-major number (``j * Q + i``, as BK5's @exclusive
columns and global arrays do), runs as one loop over that number -- the same iterations in
the same order, so the same bits -- and planes outside the pass's conditions keep their two
loops."""

from __future__ import annotations

import numpy as np
import pytest

import okl
import okl.transforms.cpu.lower as lower

PLANE = """
#define Q 10
@kernel void plane(const int E, @restrict const double *q, @restrict double *out) {
  for (int e = 0; e < E; ++e; @outer) {
    @exclusive double r[Q];
    for (int j = 0; j < Q; ++j; @inner(1)) {
      for (int i = 0; i < Q; ++i; @inner(0)) {
        const int base = e * Q * Q * Q + j * Q + i;
        for (int k = 0; k < Q; ++k) {
          r[k] = q[base + k * Q * Q];
        }
      }
    }
    for (int j = 0; j < Q; ++j; @inner(1)) {
      for (int i = 0; i < Q; ++i; @inner(0)) {
        double s = 0;
        for (int k = 0; k < Q; ++k) {
          s += (k + 1) * r[k];
        }
        out[e * Q * Q + j * Q + i] = s;
      }
    }
  }
}
"""


def _variant(old: str, new: str, src: str = PLANE) -> str:
    assert old in src, old
    return src.replace(old, new)


def _run(mode: str, src: str, q: np.ndarray) -> np.ndarray:
    dev = okl.Device(mode)
    E, Q = q.shape[0], q.shape[1]
    k = dev.build_kernel_from_string(src, "plane")
    out = dev.asarray(np.full(E * Q * Q, np.nan))
    k(np.int32(E), dev.asarray(q.reshape(-1)), out)
    return out.get().reshape(E, Q, Q)


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_plane_is_one_loop(mode):
    c = okl.translate(PLANE, mode, line_directives=False).source
    # both planes: one loop of 100 lanes, marked as the row of lanes was
    assert c.count("#pragma GCC ivdep\n    for (int ji = 0; ji < 100; ++ji) {") == 2, c
    assert "const int base = e * 10 * 10 * 10 + ji;" in c  # the terms before the pair stay
    assert "r[k][ji] = q[base + k * 10 * 10];" in c  # the @exclusive slot: the thread's number
    assert "out[e * 10 * 10 + ji] = s;" in c
    assert "for (int j = 0;" not in c and "for (int i = 0;" not in c


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_same_bits(mode, monkeypatch):
    """Against numpy, and against the translation with the pass off: every thread computes
    what it computed, in the same order."""
    g = np.random.default_rng(3)
    E, Q = 5, 10
    q = g.random((E, Q, Q, Q)) * 2 - 1
    now = _run(mode, PLANE, q)
    np.testing.assert_allclose(now, np.einsum("k,ekji->eji", np.arange(1.0, Q + 1), q),
                               rtol=1e-13, atol=1e-13)
    monkeypatch.setattr(lower, "collapse_planes", lambda kernel, lanes: 0)
    c = okl.translate(PLANE, mode).source
    assert "for (int ji = 0;" not in c and "for (int i = 0; i < 10; ++i)" in c
    # a different source text, so that the build cache cannot answer with the collapsed code
    before = _run(mode, PLANE + "\n// the pass off\n", q)
    np.testing.assert_array_equal(now, before)


def test_rows_of_five_by_three():
    """Rows of 5 lanes, 3 rows: ``i + 5 * j`` in either order of its terms."""
    src = ("@kernel void h(double *y) { for (int e = 0; e < 2; ++e; @outer) {"
           " for (int j = 0; j < 3; ++j; @inner(1)) { for (int i = 0; i < 5; ++i; @inner(0)) {"
           " y[e * 15 + i + 5 * j] = e * 100 + 5 * j + i; } } } }")
    c = okl.translate(src, "serial", line_directives=False).source
    assert "for (int ji = 0; ji < 15; ++ji)" in c
    assert "y[e * 15 + ji] = e * 100 + ji;" in c
    dev = okl.Device("serial")
    y = dev.zeros(30, np.float64)
    dev.build_kernel_from_string(src, "h")(y)
    np.testing.assert_array_equal(y.get(), np.r_[np.arange(15), 100 + np.arange(15)])


@pytest.mark.parametrize("old, new", [
    ("#define Q 10", "#define Q 8"),  # rows of whole vectors: nothing gained
    ("#define Q 10", "#define Q 4"),  # a row is one vector
    ("out[e * Q * Q + j * Q + i] = s;", "out[e * Q * Q + j * Q + i] = s + i;"),  # i alone
    ("out[e * Q * Q + j * Q + i] = s;", "out[e * Q * Q + j * Q + i] = s * j;"),  # j alone
    # a floating-point term before the pair: (s + j * Q) + i rounds twice, s + ji once
    ("out[e * Q * Q + j * Q + i] = s;", "out[e * Q * Q + j * Q + i] = s + j * Q + i;"),
    # the pair not side by side: j * Q + e + i
    ("out[e * Q * Q + j * Q + i] = s;", "out[j * Q + e + i + e * (Q * Q - 1)] = s;"),
    # before the pair, arithmetic other than + - * (kept out, though integer here)
    ("out[e * Q * Q + j * Q + i] = s;", "out[e * Q * Q / 1 + j * Q + i] = s;"),
    ("out[e * Q * Q + j * Q + i] = s;", "@atomic out[e * Q * Q + j * Q + i] += s;"),
])
def test_collapse_refused(old, new):
    """Outside the conditions the second plane keeps its row and lane loops (the first one
    is collapsed unless its rows are whole vectors too)."""
    src = _variant(old, new)
    c = okl.translate(src, "serial", line_directives=False).source
    first = 0 if "Q 10" not in src else 1
    assert c.count("for (int ji = 0;") == first, c
    assert "for (int j = 0;" in c


def test_other_multiplier_refused():
    """``j * 9 + i`` with rows of 10 is not the thread's number."""
    src = _variant("out[e * Q * Q + j * Q + i] = s;", "out[e * Q * Q + j * 9 + i + j] = s;")
    c = okl.translate(src, "serial", line_directives=False).source
    assert c.count("for (int ji = 0;") == 1  # the first plane only
