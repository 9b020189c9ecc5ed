"""cpu.staging: a @shared array that only stages a read-only argument (dgvolume copies each
element's fields into ``s_q`` and broadcasts them to every node) is read from the argument
instead, once per row of lanes and under the copy's guard -- the same values, so the same
bits -- and arrays outside the pass's conditions stay as they were."""

from __future__ import annotations

import numpy as np
import pytest

import okl
import okl.transforms.cpu.lower as lower

STAGED = """
#define NB 4
#define NP 6
#define NF 3
@kernel void staged(const int E, @restrict const double *q, @restrict const double *w,
                    @restrict double *out) {
  for (int eo = 0; eo < E; eo += NB; @outer) {
    @shared double s_q[NB][NF][NP];
    @exclusive double r;
    for (int es = 0; es < NB; ++es; @inner(1)) {
      for (int n = 0; n < NP; ++n; @inner(0)) {
        const int e = eo + es;
        r = 0;
        if (e < E) {
          for (int f = 0; f < NF; ++f) {
            s_q[es][f][n] = q[(e * NF + f) * NP + n];
          }
        }
      }
    }
    for (int m = 0; m < NP; ++m) {
      for (int es = 0; es < NB; ++es; @inner(1)) {
        for (int n = 0; n < NP; ++n; @inner(0)) {
          r += w[m * NP + n] * (s_q[es][0][m] + 2 * s_q[es][2][m]) - s_q[es][0][m];
        }
      }
    }
    for (int es = 0; es < NB; ++es; @inner(1)) {
      for (int n = 0; n < NP; ++n; @inner(0)) {
        const int e = eo + es;
        if (e < E) out[e * NP + n] = r;
      }
    }
  }
}
"""


def _variant(old: str, new: str) -> str:
    assert old in STAGED, old
    return STAGED.replace(old, new)


def _run(mode: str, src: str, q: np.ndarray, w: np.ndarray) -> np.ndarray:
    dev = okl.Device(mode)
    E = q.shape[0]
    k = dev.build_kernel_from_string(src, "staged")
    out = dev.asarray(np.full(E * 6, np.nan))
    k(np.int32(E), dev.asarray(q.reshape(-1)), dev.asarray(w.reshape(-1)), out)
    return out.get().reshape(E, 6)


def _reference(q: np.ndarray, w: np.ndarray) -> np.ndarray:
    # r[e, n] = sum over m of w[m, n] * (q0 + 2 q2)[e, m] - q0[e, m], in m order
    return np.einsum("mn,em->en", w, q[:, 0] + 2 * q[:, 2]) - q[:, 0].sum(axis=1)[:, None]


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_readers_read_the_argument(mode):
    c = okl.translate(STAGED, mode, line_directives=False).source
    assert "s_q[" not in c  # the copy and the array are gone
    assert "for (int f = 0;" not in c and "if (e < E)" not in c.split("for (int m")[0]
    # each element read once per row of lanes, before the lane loop, under the copy's guard
    assert "const double s_q__0 = (eo + es < E) ? ((double) q[((eo + es) * 3 + 0) * 6 + m])" \
        " : ((double) 0);" in c
    assert "const double s_q__1 = (eo + es < E) ? ((double) q[((eo + es) * 3 + 2) * 6 + m])" \
        " : ((double) 0);" in c
    assert c.count("s_q__0 =") == 1  # two reads of one element: one local
    assert "(s_q__0 + 2 * s_q__1) - s_q__0" in c


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_same_bits(mode, monkeypatch):
    """Against numpy and the translation with the pass off; 7 elements leave the last block
    of 4 with one element whose guard fails."""
    g = np.random.default_rng(6)
    q, w = g.random((7, 3, 6)) * 2 - 1, g.random((6, 6)) * 2 - 1
    now = _run(mode, STAGED, q, w)
    np.testing.assert_allclose(now, _reference(q, w), rtol=1e-13, atol=1e-13)
    monkeypatch.setattr(lower, "forward_staged_arguments", lambda kernel: 0)
    assert "s_q[" in okl.translate(STAGED, mode).source
    before = _run(mode, STAGED + "\n// the pass off\n", q, w)
    np.testing.assert_array_equal(now, before)


@pytest.mark.parametrize("old, new", [
    # a read that names the lane: a vector load of the copy would become a gather
    ("(s_q[es][0][m] + 2 * s_q[es][2][m])", "(s_q[es][0][n] + 2 * s_q[es][2][m])"),
    # the argument is not read-only for certain
    ("@restrict const double *q", "const double *q"),
    ("@restrict const double *q", "@restrict double *q"),
    # the copy does not cover the array: f counts 2 of 3 fields
    ("for (int f = 0; f < NF; ++f)", "for (int f = 0; f < NF - 1; ++f)"),
    # a second store
    ("s_q[es][f][n] = q[(e * NF + f) * NP + n];",
     "s_q[es][f][n] = q[(e * NF + f) * NP + n]; s_q[es][f][n] = 0;"),
    # the guard has an else
    ("if (e < E) {\n          for", "if (e >= E) {} else {\n          for"),
    # the stored value reads a name that is not the copy's: r is the thread's own
    ("s_q[es][f][n] = q[(e * NF + f) * NP + n];", "s_q[es][f][n] = q[(e * NF + f) * NP + n] + r;"),
    # a read whose element is not one of the copy's for certain: the read, made before the
    # lane loop, could read the argument where the copy did not
    ("(s_q[es][0][m] + 2 * s_q[es][2][m])", "(s_q[es][0][(m + 1) % NP] + 2 * s_q[es][2][m])"),
    ("for (int m = 0; m < NP; ++m) {", "for (int m = 0; m < NP + 1; ++m) {"),
    # the copy reads an inner e, not the one declared first: substituting that one would lie
    ("if (e < E) {\n          for", "if (e < E) {\n          const int e = 0;\n          for"),
    # a reader's block declares a name the copy's guard reads (E): hoisted there, it would
    # read that one
    ("        if (e < E) out[e * NP + n] = r;",
     "        const int E = 1;\n        if (e < E) out[e * NP + n] = r;"),
    # a copy of an array the kernel writes
    ("s_q[es][f][n] = q[(e * NF + f) * NP + n];", "s_q[es][f][n] = out[n];"),
])
def test_staging_refused(old, new):
    src = _variant(old, new)
    c = okl.translate(src, "serial", line_directives=False).source
    assert "s_q[" in c and "s_q__" not in c, c
