"""CPU lowering for speed (okl.transforms.cpu_guards, cpu_simd, cpu_transpose), always
without changing which iterations run or what they compute."""

from __future__ import annotations

import numpy as np
import pytest

import okl

SRC = """
@kernel void k(const int N, const float *x, float *y, float *z) {
  for (int b = 0; b < (N + 63) / 64; ++b; @outer) {
    @shared float s[64];
    for (int t = 0; t < 64; ++t; @inner) {
      const int base = b * 64;
      const int i = base + t;
      if (i < N) y[i] = 2 * x[i];
    }
    for (int t = 0; t < 64; ++t; @inner) {
      const int i = b * 64 + t;
      s[t] = 0;
      if (i < N) s[t] = x[i];
    }
    for (int t = 0; t < 64; ++t; @inner) {
      if (t == 3) z[b] = s[3];
    }
  }
}
"""


def test_guards_become_bounds():
    c = okl.translate(SRC, "openmp").source
    assert "t < ((64 < N - b * 64) ? (64) : (N - b * 64))" in c  # through `base`
    assert "for (int t = 3; t < 4; ++t)" in c
    # a statement before the guard runs for every t: that guard stays
    assert c.count("if (i < N)") == 1


@pytest.mark.parametrize("mode", ["serial", "openmp"])
@pytest.mark.parametrize("n", [1, 63, 64, 100, 128])
def test_same_iterations(mode, n):
    dev = okl.Device(mode)
    k = dev.build_kernel_from_string(SRC, "k")
    x = np.arange(1, n + 1, dtype=np.float32)
    nb = (n + 63) // 64
    y, z = dev.asarray(np.full(n + 8, -1, np.float32)), dev.asarray(np.full(nb, -1, np.float32))
    k(np.int32(n), dev.asarray(x), y, z)
    want = np.full(n + 8, -1, np.float32)
    want[:n] = 2 * x
    np.testing.assert_array_equal(y.get(), want)
    np.testing.assert_array_equal(z.get(), [x[b * 64 + 3] if b * 64 + 3 < n else 0
                                             for b in range(nb)])


HIST = """
@kernel void hist(const int N, const int *x, int *h, float *y) {
  for (int b = 0; b < N / 64; ++b; @outer) {
    for (int t = 0; t < 64; ++t; @inner) {
      @atomic h[x[b * 64 + t]] += 1;
    }
    for (int t = 0; t < 64; ++t; @inner) {
      y[b * 64 + t] = 2.0f * x[b * 64 + t];
    }
  }
}
"""


def test_simd_mark_only_on_loops_without_atomics():
    """@inner iterations are independent (cpu_simd) except through @atomic: a histogram loop
    must not be marked, or gcc could vectorise colliding increments."""
    for mode in ("serial", "openmp"):
        c = okl.translate(HIST, mode).source
        assert c.count("#pragma GCC ivdep") == 1
        assert c.index("#pragma GCC ivdep") > c.index("+= 1")
    dev = okl.Device("serial")
    x = np.random.default_rng(1).integers(0, 3, 4096).astype(np.int32)
    h, y = dev.zeros(3, np.int32), dev.zeros(4096, np.float32)
    dev.build_kernel_from_string(HIST, "hist")(np.int32(4096), dev.asarray(x), h, y)
    np.testing.assert_array_equal(h.get(), np.bincount(x, minlength=3))


MATMUL = """
@kernel void mm(const int E, const double *A, const double *x, double *y) {
  for (int e = 0; e < E; ++e; @outer) {
    @shared double s_A[6][6];
    @shared double s_x[6];
    for (int j = 0; j < 6; ++j; @inner(1)) {
      for (int i = 0; i < 6; ++i; @inner(0)) {
        s_A[j][i] = A[j * 6 + i];
        s_A[j][i] *= 2.0;
      }
    }
    for (int j = 0; j < 6; ++j; @inner(1)) {
      for (int i = 0; i < 6; ++i; @inner(0)) {
        if (j == 0) s_x[i] = x[e * 6 + i];
      }
    }
    for (int j = 0; j < 6; ++j; @inner(1)) {
      for (int i = 0; i < 6; ++i; @inner(0)) {
        if (j == 0) {
          double r = 0;
          for (int m = 0; m < 6; ++m) r += s_A[i][m] * s_x[m] + s_A[m][i];
          y[e * 6 + i] = r;
        }
      }
    }
  }
}
"""


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_transposed_shared_twin(mode):
    """s_A[i][m] (lane index first) reads a transposed twin kept in step with every store;
    s_A[m][i] keeps the original."""
    c = okl.translate(MATMUL, mode).source
    assert "s_A__t[m][i] * s_x[m] + s_A[m][i]" in c
    assert c.count("s_A__t[i][j] = s_A[j][i]") == 2  # after the store and the *=
    dev = okl.Device(mode)
    rng = np.random.default_rng(2)
    A, x = rng.random(36), rng.random((5, 6))
    y = dev.zeros(30, np.float64)
    dev.build_kernel_from_string(MATMUL, "mm")(np.int32(5), dev.asarray(A), dev.asarray(x), y)
    A2 = 2 * A.reshape(6, 6)
    np.testing.assert_allclose(y.get().reshape(5, 6), x @ A2.T + A2.sum(axis=0), rtol=1e-13)
