"""cpu.pad: a lane loop of more than 8 doubles, not a whole number of 4-wide vectors, whose
leading statements only sum into scalars (BK5's gradient block at p_Nq = 10) computes those
sums over padded rows (dead lanes reading zeroed pads of the arrays they read) and stores
only the real lanes.  The answers are the same to the bit, and kernels outside the pass's
conditions are left as they were."""

from __future__ import annotations

import numpy as np
import pytest

import okl
import okl.transforms.cpu.lower as lower

Q = 10

GRAD = """
#define Q 10
@kernel void grad(const int E, @restrict const double *D, @restrict const double *q,
                  @restrict double *out) {
  for (int e = 0; e < E; ++e; @outer) {
    @shared double s_D[Q][Q];
    @shared double s_q[Q][Q];
    for (int k = 0; k < Q; ++k) {
      for (int j = 0; j < Q; ++j; @inner(1)) {
        for (int i = 0; i < Q; ++i; @inner(0)) {
          s_D[j][i] = D[j * Q + i];
          s_q[j][i] = q[((e * Q + k) * Q + j) * Q + i];
        }
      }
      for (int j = 0; j < Q; ++j; @inner(1)) {
        for (int i = 0; i < Q; ++i; @inner(0)) {
          double qr = 0, qs = 0;
          for (int m = 0; m < Q; ++m) {
            qr += s_D[i][m] * s_q[j][m];
            qs += s_D[j][m] * s_q[m][i];
          }
          out[((e * Q + k) * Q + j) * Q + i] = 2 * qr + qs;
        }
      }
    }
  }
}
"""


def _variant(old: str, new: str) -> str:
    assert old in GRAD, old
    return GRAD.replace(old, new)


def _run(dev, src: str, D: np.ndarray, q: np.ndarray) -> np.ndarray:
    E = q.shape[0]
    k = dev.build_kernel_from_string(src, "grad")
    out = dev.asarray(np.full(E * Q**3, np.nan))
    k(np.int32(E), dev.asarray(D.reshape(-1)), dev.asarray(q.reshape(-1)), out)
    return out.get()


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_sums_over_padded_rows(mode):
    c = okl.translate(GRAD, mode).source
    assert "double qr__l[12];" in c and "double qs__l[12];" in c
    assert "for (int i = 0; i < 12; ++i)" in c
    assert "s_q[10][12]" in c and "s_D__t[10][12]" in c  # the lane-stepped arrays padded
    assert "s_D[10][10]" in c  # read by lane 0's subscripts only: as it was
    # the real lanes store; their sums come from the padded rows
    tail = c[c.index("for (int i = 0; i < 12; ++i)"):]
    assert "double qr = qr__l[i];" in tail and "for (int i = 0; i < 10; ++i)" in tail


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_same_bits(mode, monkeypatch):
    """Against the translation with the pass off: the same sums in the same order."""
    dev = okl.Device(mode)
    g = np.random.default_rng(12)
    E = 3
    D = g.random((Q, Q)) * 2 - 1
    q = g.random((E, Q, Q, Q)) * 2 - 1
    now = _run(dev, GRAD, D, q)
    monkeypatch.setattr(lower, "pad_lane_rows", lambda kernel, lanes: 0)
    before_src = GRAD.replace("#define Q 10", "#define Q 10\n#define OFF 1")  # a fresh build
    assert "qr__l" not in okl.translate(before_src, mode).source
    np.testing.assert_array_equal(now, _run(dev, before_src, D, q))
    ref = 2 * np.einsum("im,ekjm->ekji", D, q) + np.einsum("jm,ekmi->ekji", D, q)
    np.testing.assert_allclose(now, ref.reshape(-1), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("src", [
    # 8 lanes: whole vectors already; 6 lanes (4 + 2): measured neutral
    GRAD.replace("#define Q 10", "#define Q 8"),
    GRAD.replace("#define Q 10", "#define Q 6"),
    # float sums: 8-wide vectors, not measured
    GRAD.replace("double", "float"),
    # a lane-stepped load of a parameter (no pad to read)
    _variant("qs += s_D[j][m] * s_q[m][i];", "qs += s_D[j][m] * q[m * Q + i];"),
    # the lane steps a subscript other than the last
    _variant("qs += s_D[j][m] * s_q[m][i];", "qs += s_D[j][m] * s_q[i][i];"),
    # a division in the sums (a dead lane must not compute what may trap)
    _variant("qr += s_D[i][m] * s_q[j][m];", "qr += s_D[i][m] / s_q[j][m];"),
    # the rest of the body changes a scalar the sums produce
    _variant("out[((e * Q + k) * Q + j) * Q + i] = 2 * qr + qs;",
             "qr += 1;\n          out[((e * Q + k) * Q + j) * Q + i] = 2 * qr + qs;"),
    # the rest of the body stores to an array the sums read (its order would change)
    _variant("out[((e * Q + k) * Q + j) * Q + i] = 2 * qr + qs;",
             "out[((e * Q + k) * Q + j) * Q + i] = 2 * qr + qs;\n          s_q[j][i] = 0;"),
    # the sums are under a condition
    _variant("            qr += s_D[i][m] * s_q[j][m];",
             "            if (m > 1) qr += s_D[i][m] * s_q[j][m];"),
    # a lane-stepped subscript that can go below zero for a dead lane
    _variant("qs += s_D[j][m] * s_q[m][i];", "qs += s_D[j][m] * s_q[m][Q - 1 - i];"),
])
def test_pad_refused(src):
    c = okl.translate(src, "serial").source
    assert "__l[" not in c  # no split, no padded row
