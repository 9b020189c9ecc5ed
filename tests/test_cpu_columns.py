"""cpu.columns: an @exclusive column summed across a slab loop (BK5's r_Aq) is finished in the
block that reads it, each element in a register, in the same order; the answers are the
same to the bit, and kernels outside the pass's conditions are left as they were."""

from __future__ import annotations

import numpy as np
import pytest

import okl

Q = 4

SLAB = """
#define Q 4
@kernel void slab(const int E, const double zero, @restrict const double *D,
                  @restrict const double *q, @restrict double *out) {
  for (int e = 0; e < E; ++e; @outer) {
    @shared double s_D[Q][Q];
    @shared double s_g[Q][Q];
    @exclusive double r_q[Q];
    @exclusive double r_col[Q];
    @exclusive double r_t;
    for (int j = 0; j < Q; ++j; @inner(1)) {
      for (int i = 0; i < Q; ++i; @inner(0)) {
        s_D[j][i] = D[j * Q + i];
        for (int k = 0; k < Q; ++k) {
          r_q[k] = q[((e * Q + k) * Q + j) * Q + i];
          r_col[k] = 0;
        }
      }
    }
    for (int k = 0; k < Q; ++k) {
      for (int j = 0; j < Q; ++j; @inner(1)) {
        for (int i = 0; i < Q; ++i; @inner(0)) {
          r_t = 0;
          for (int m = 0; m < Q; ++m) {
            r_t += s_D[k][m] * r_q[m];
          }
          s_g[j][i] = r_t * r_q[k];
        }
      }
      for (int j = 0; j < Q; ++j; @inner(1)) {
        for (int i = 0; i < Q; ++i; @inner(0)) {
          double a = s_g[j][i];
          for (int m = 0; m < Q; ++m) {
            a += s_D[m][i] * s_g[j][m];
            r_col[m] += s_D[k][m] * r_t;
          }
          r_col[k] += a;
        }
      }
    }
    for (int j = 0; j < Q; ++j; @inner(1)) {
      for (int i = 0; i < Q; ++i; @inner(0)) {
        for (int k = 0; k < Q; ++k) {
          out[((e * Q + k) * Q + j) * Q + i] = r_col[k];
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
    """out[e, k', j, i] = sum over slabs k of D[k][k'] t_k (+ a_k where k == k'), with
    t_k = sum_m D[k][m] q[e, m, j, i], g_k = t_k q[e, k, j, i], a_k = g_k[j, i] +
    sum_m D[m][i] g_k[j, m]."""
    E = q.shape[0]
    out = np.zeros_like(q)
    for k in range(Q):
        t = np.einsum("m,emji->eji", D[k], q)
        g = t * q[:, k]
        a = g + np.einsum("mi,ejm->eji", D, g)
        out += D[k][None, :, None, None] * t[:, None]
        out[:, k] += a
    return out.reshape(E, -1)


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_column_finished_where_read(mode):
    c = okl.translate(SLAB, mode).source
    # the slab saves what the updates read, the column leaves the @exclusive slots
    assert "r_t__k[k][" in c and "a__k[k][" in c
    assert "r_col[4][16]" not in c and "double r_col[4];" in c
    assert "r_col[k][i + 4 * j] = 0;" not in c
    # F sums each element in the slabs' order, the slab's term before the element's own
    start = c.index("double r_col[4];")
    replay = c[start:c.index("out[", start)]
    assert "double r_col__sum = 0;" in replay and "r_col[m] = r_col__sum;" in replay
    assert replay.index("r_col__sum += s_D[k][m] * r_t__k[k][") < \
        replay.index("if (k == m) r_col__sum += a__k[k][")
    assert "#pragma GCC unroll 4" in replay


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_same_bits(mode):
    """The rewritten kernel against a variant the pass must refuse (the column starts at an
    argument, not a constant): the same sums in the same order, so the same bits."""
    refused = _variant("r_col[k] = 0;", "r_col[k] = zero;")
    assert "__k[k]" not in okl.translate(refused, mode).source
    dev = okl.Device(mode)
    g = np.random.default_rng(7)
    E = 5
    D = g.random((Q, Q)) * 2 - 1
    q = g.random((E, Q, Q, Q)) * 2 - 1
    outs = []
    for src in (SLAB, refused):
        k = dev.build_kernel_from_string(src, "slab")
        out = dev.asarray(np.full(E * Q**3, np.nan))
        k(np.int32(E), 0.0, dev.asarray(D.reshape(-1)), dev.asarray(q.reshape(-1)), out)
        outs.append(out.get())
    np.testing.assert_array_equal(outs[0], outs[1])
    np.testing.assert_allclose(outs[0].reshape(E, -1), reference(D, q), rtol=1e-12,
                               atol=1e-12)


#: r_t written once per slab, from a local: the slab writes its saved slot directly
DIRECT = _variant("""          r_t = 0;
          for (int m = 0; m < Q; ++m) {
            r_t += s_D[k][m] * r_q[m];
          }
          s_g[j][i] = r_t * r_q[k];""", """          double t = 0;
          for (int m = 0; m < Q; ++m) {
            t += s_D[k][m] * r_q[m];
          }
          r_t = t;
          s_g[j][i] = t * r_q[k];""")


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_saved_value_written_directly(mode):
    c = okl.translate(DIRECT, mode).source
    assert "r_t__k[k][i + 4 * j] = t;" in c
    assert "double r_t[16];" not in c and "= r_t[" not in c  # no copy: r_t is gone
    # r_t is read elsewhere too: it stays, and C copies it into the slab's slot
    kept = okl.translate(DIRECT.replace("s_g[j][i] = t * r_q[k];", "s_g[j][i] = r_t * r_q[k];"),
                         mode).source
    assert "r_t__k[k][i + 4 * j] = r_t[i + 4 * j];" in kept


def test_saved_value_written_directly_same_bits():
    dev = okl.Device("serial")
    g = np.random.default_rng(8)
    E = 3
    D = g.random(Q * Q) * 2 - 1
    q = g.random(E * Q**3) * 2 - 1
    outs = []
    for src in (DIRECT, DIRECT.replace("r_col[k] = 0;", "r_col[k] = zero;")):
        k = dev.build_kernel_from_string(src, "slab")
        out = dev.asarray(np.full(E * Q**3, np.nan))
        k(np.int32(E), 0.0, dev.asarray(D), dev.asarray(q), out)
        outs.append(out.get())
    np.testing.assert_array_equal(outs[0], outs[1])
    np.testing.assert_allclose(outs[0].reshape(E, -1),
                               reference(D.reshape(Q, Q), q.reshape(E, Q, Q, Q)),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("src", [
    # the column read inside the slab loop: its running values are observed
    _variant("s_g[j][i] = r_t * r_q[k];", "s_g[j][i] = r_t * r_q[k] + r_col[k];"),
    # an update under a condition
    _variant("r_col[k] += a;", "if (a > 0) r_col[k] += a;"),
    # the term reads a @shared array the slab loop writes (its value changes by F)
    _variant("r_col[m] += s_D[k][m] * r_t;", "r_col[m] += s_g[k][m] * r_t;"),
    # the term reads an @exclusive scalar that C itself writes
    _variant("double a = s_g[j][i];", "double a = s_g[j][i];\n          r_t += 1;"),
    # the term reads a local of C
    _variant("r_col[m] += s_D[k][m] * r_t;", "r_col[m] += s_D[k][m] * a;"),
    # F writes the column
    _variant("out[((e * Q + k) * Q + j) * Q + i] = r_col[k];",
             "out[((e * Q + k) * Q + j) * Q + i] = r_col[k]; r_col[k] = 0;"),
    # F walks the threads in another shape
    _variant("""    for (int j = 0; j < Q; ++j; @inner(1)) {
      for (int i = 0; i < Q; ++i; @inner(0)) {
        for (int k = 0; k < Q; ++k) {
          out""", """    for (int i = 0; i < Q; ++i; @inner(1)) {
      for (int j = 0; j < Q; ++j; @inner(0)) {
        for (int k = 0; k < Q; ++k) {
          out"""),
    # the slab loop ends early
    _variant("s_g[j][i] = r_t * r_q[k];\n        }\n      }\n",
             "s_g[j][i] = r_t * r_q[k];\n        }\n      }\n      if (k == E) break;\n"),
    # an update of the loop under a condition
    _variant("""a += s_D[m][i] * s_g[j][m];
            r_col[m]""", """a += s_D[m][i] * s_g[j][m];
            if (m > 0) r_col[m]"""),
    # the slab loop is not the column's length
    _variant("for (int k = 0; k < Q; ++k) {\n      for (int j = 0; j < Q; ++j; @inner(1)) {\n"
             "        for (int i = 0; i < Q; ++i; @inner(0)) {\n          r_t = 0;",
             "for (int k = 0; k < Q - 1; ++k) {\n      for (int j = 0; j < Q; ++j; @inner(1)) {"
             "\n        for (int i = 0; i < Q; ++i; @inner(0)) {\n          r_t = 0;"),
    # F's body branches (a guarded store)
    _variant("out[((e * Q + k) * Q + j) * Q + i] = r_col[k];",
             "if (e < E) out[((e * Q + k) * Q + j) * Q + i] = r_col[k];"),
    # an update with another operator
    _variant("r_col[k] += a;", "r_col[k] -= a;"),
])
@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_refused(src, mode):
    c = okl.translate(src, mode).source
    assert "__k[k]" not in c
    assert "r_col[4][16]" in c  # the column keeps its @exclusive slots
