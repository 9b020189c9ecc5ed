"""cpu.forward: a @shared slab that is nothing but a copy of an @exclusive element (BK5's s_q)
is read from the element's slot instead; cpu.hoist: a @shared array filled with the same
values in every @outer iteration (BK5's s_D and its transposed twin) is filled once, before
the @outer loop.  The answers are the same to the bit, and kernels outside the passes'
conditions are left as they were."""

from __future__ import annotations

import numpy as np
import pytest

import okl
import okl.transforms.cpu.lower as lower

Q = 4

SLAB = """
#define Q 4
@kernel void slab(const int E, @restrict const double *D, @restrict const double *q,
                  @restrict double *out) {
  for (int e = 0; e < E; ++e; @outer) {
    @shared double s_D[Q][Q];
    @shared double s_q[Q][Q];
    @exclusive double r_q[Q];
    for (int j = 0; j < Q; ++j; @inner(1)) {
      for (int i = 0; i < Q; ++i; @inner(0)) {
        s_D[j][i] = D[j * Q + i];
        for (int k = 0; k < Q; ++k) {
          r_q[k] = q[((e * Q + k) * Q + j) * Q + i];
        }
      }
    }
    for (int k = 0; k < Q; ++k) {
      for (int j = 0; j < Q; ++j; @inner(1)) {
        for (int i = 0; i < Q; ++i; @inner(0)) {
          s_q[j][i] = r_q[k];
        }
      }
      for (int j = 0; j < Q; ++j; @inner(1)) {
        for (int i = 0; i < Q; ++i; @inner(0)) {
          double r = 0;
          for (int m = 0; m < Q; ++m) {
            r += s_D[i][m] * s_q[j][m];
            r += s_D[j][m] * s_q[m][i];
          }
          out[((e * Q + k) * Q + j) * Q + i] = r;
        }
      }
    }
  }
}
"""


def _variant(old: str, new: str) -> str:
    assert old in SLAB, old
    return SLAB.replace(old, new)


def reference(D: np.ndarray, q: np.ndarray) -> np.ndarray:
    """out[e, k, j, i] = sum_m D[i][m] q[e, k, j, m] + D[j][m] q[e, k, m, i]."""
    return (np.einsum("im,ekjm->ekji", D, q) + np.einsum("jm,ekmi->ekji", D, q)).reshape(
        q.shape[0], -1)


def _run(dev, src: str, D: np.ndarray, q: np.ndarray) -> np.ndarray:
    E = q.shape[0]
    k = dev.build_kernel_from_string(src, "slab")
    out = dev.asarray(np.full(E * Q**3, np.nan))
    k(np.int32(E), dev.asarray(D.reshape(-1)), dev.asarray(q.reshape(-1)), out)
    return out.get()


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_slab_copy_read_from_the_column(mode):
    c = okl.translate(SLAB, mode).source
    assert "s_q" not in c  # the store and the array are gone
    assert "r_q[k][m + 4 * j]" in c and "r_q[k][i + 4 * m]" in c


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_fill_hoisted_before_the_outer_loop(mode):
    c = okl.translate(SLAB, mode).source
    fill = c.index("s_D[j][i] = D[j * 4 + i];")
    outer = c.index("for (int e = 0; e < E; ++e)")
    assert fill < outer and c.count("s_D[j][i] = D[j * 4 + i];") == 1
    assert "if (((int) 0) < E) {" in c[:fill]  # no read of D when there is no element
    assert c.count("double s_D[4][4];") == 1 and c.index("double s_D[4][4];") < fill
    if mode == "openmp":  # filled once per thread, at the top of the loop's own region
        region = c.index("#pragma omp parallel if(parallel: 1 < E)\n")  # one element: no team
        assert region < c.index("double s_D[4][4];") < fill < c.index("#pragma omp for\n") < outer
        assert "#pragma omp parallel for" not in c


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_a_read_inside_a_call_is_forwarded_in_its_place(mode):
    """A forwarded read that is a call's argument (a list of the tree, not a field) is
    replaced where it stands: the call keeps its one argument, the answer is right."""
    src = _variant("r += s_D[j][m] * s_q[m][i];", "r += s_D[j][m] * fabs(s_q[m][i]);")
    c = okl.translate(src, mode).source
    assert "s_q" not in c and "fabs(r_q[k][i + 4 * m])" in c
    g = np.random.default_rng(3)
    E = 3
    D = g.random((Q, Q)) * 2 - 1
    q = g.random((E, Q, Q, Q)) * 2 - 1
    want = (np.einsum("im,ekjm->ekji", D, q) +
            np.einsum("jm,ekmi->ekji", D, np.abs(q))).reshape(-1)
    assert np.allclose(_run(okl.Device(mode), src, D, q).reshape(-1), want, rtol=1e-12)


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_same_bits(mode, monkeypatch):
    """The rewritten kernel against the translation with both passes off: the same values,
    the same sums in the same order, so the same bits."""
    dev = okl.Device(mode)
    g = np.random.default_rng(11)
    E = 5
    D = g.random((Q, Q)) * 2 - 1
    q = g.random((E, Q, Q, Q)) * 2 - 1
    now = _run(dev, SLAB, D, q)
    # a transposed store (thread (j, i) stores s_q[i][j]) is forwarded too, to that slot
    transposed = _variant("s_q[j][i] = r_q[k];", "s_q[i][j] = r_q[k];")
    assert "s_q" not in okl.translate(transposed, mode).source
    now_t = _run(dev, transposed, D, q)
    monkeypatch.setattr(lower, "forward_shared_copies", lambda kernel: None)
    monkeypatch.setattr(lower, "hoist_constant_fills", lambda kernel: None)
    before_src = SLAB.replace("#define Q 4", "#define Q 4\n#define OFF 1")  # a fresh build
    assert "s_q[j][i] = r_q[k" in okl.translate(before_src, mode).source
    before = _run(dev, before_src, D, q)
    np.testing.assert_array_equal(now, before)
    off = "#define Q 4\n#define OFF 1"
    np.testing.assert_array_equal(now_t, _run(dev, transposed.replace("#define Q 4", off), D, q))
    np.testing.assert_allclose(now.reshape(E, -1), reference(D, q), rtol=1e-12, atol=1e-12)
    # no element: the hoisted fill does not run (the kernel returns, out untouched)
    empty = dev.build_kernel_from_string(SLAB, "slab")
    out = dev.asarray(np.full(4, 7.0))
    empty(np.int32(0), dev.asarray(D.reshape(-1)), dev.asarray(q.reshape(-1)), out)
    assert (out.get() == 7.0).all()


@pytest.mark.parametrize("src", [
    # the element changes after the copy, in the same block
    _variant("s_q[j][i] = r_q[k];", "s_q[j][i] = r_q[k];\n          r_q[k] += 1;"),
    # ... or between the copy and the readers
    _variant("          double r = 0;", "          r_q[k] = 0;\n          double r = 0;"),
    # a second store to the slab
    _variant("out[((e * Q + k) * Q + j) * Q + i] = r;",
             "out[((e * Q + k) * Q + j) * Q + i] = r;\n          s_q[j][i] = 0;"),
    # the copy is arithmetic on the element, not the element
    _variant("s_q[j][i] = r_q[k];", "s_q[j][i] = 2 * r_q[k];"),
    # the copy does not store every element (two threads store one)
    _variant("s_q[j][i] = r_q[k];", "s_q[j][j] = r_q[k];"),
    # the copy is under a condition
    _variant("s_q[j][i] = r_q[k];", "if (i < Q) s_q[j][i] = r_q[k];"),
    # a reader declares a name the copy reads
    _variant("          double r = 0;", "          double r = 0;\n          int k2 = 0;\n"
             "          { int k = 1; r += k; }"),
])
def test_forward_refused(src):
    c = okl.translate(src, "serial").source
    assert "s_q[" in c  # the slab stays


@pytest.mark.parametrize("src", [
    # the fill depends on the element
    _variant("s_D[j][i] = D[j * Q + i];", "s_D[j][i] = D[j * Q + i] + e;"),
    # the fill reads memory the kernel may write (not const @restrict)
    _variant("@restrict const double *D,", "const double *D,"),
    # the array is written elsewhere too
    _variant("out[((e * Q + k) * Q + j) * Q + i] = r;",
             "out[((e * Q + k) * Q + j) * Q + i] = r;\n          s_D[j][i] = 0;"),
    # the fill is under a condition
    _variant("s_D[j][i] = D[j * Q + i];", "if (i > 0) s_D[j][i] = D[j * Q + i];"),
    # the fill reads a parameter the kernel writes
    _variant("s_D[j][i] = D[j * Q + i];", "s_D[j][i] = D[j * Q + i] * E;").replace(
        "@kernel void slab(const int E,", "@kernel void slab(int E,").replace(
        "    for (int k = 0; k < Q; ++k) {\n      for (int j = 0; j < Q; ++j; @inner(1)) "
        "{\n        for (int i = 0; i < Q; ++i; @inner(0)) {\n          s_q",
        "    for (int k = 0; k < Q; ++k) {\n      for (int j = 0; j < Q; ++j; @inner(1)) "
        "{\n        for (int i = 0; i < Q; ++i; @inner(0)) {\n          if (E < 0) E = 0;\n"
        "          s_q"),
    # the fill reads a name the @outer body declares (a local shadowing a parameter)
    _variant("s_D[j][i] = D[j * Q + i];", "s_D[j][i] = D[j * Q + i] * E;").replace(
        "    @shared double s_D[Q][Q];", "    const int E = 2;\n    @shared double s_D[Q][Q];"),
])
def test_hoist_refused(src):
    c = okl.translate(src, "serial").source
    outer = c.index("for (int e = 0; e < E; ++e)")
    assert "s_D[j][i] =" in c[outer:]  # the fill stays in the @outer loop
