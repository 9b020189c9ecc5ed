"""cpu.registers: the full rows of a plain loop around a lane loop with running @exclusive
values get a constant lane count (gcc keeps the slots in registers); the rows run, and sum,
exactly as before."""

from __future__ import annotations

import numpy as np
import pytest

import okl

ROWS = """
@kernel void rows(const int N, const float *x, float *out) {
  for (int b = 0; b < (N + 4 * 64 - 1) / (4 * 64); ++b; @outer) {
    @exclusive float r;
    for (int t = 0; t < 64; ++t; @inner) {
      r = 0;
    }
    for (int u = 0; u < 4; ++u) {
      for (int t = 0; t < 64; ++t; @inner) {
        const int i = (b * 4 + u) * 64 + t;
        if (i < N) r += x[i];
      }
    }
    for (int t = 0; t < 64; ++t; @inner) {
      out[b * 64 + t] = r;
    }
  }
}
"""


def reference(x: np.ndarray) -> np.ndarray:
    """Lane t of block b: x[(b * 4 + u) * 64 + t] for u = 0..3 in order, in float32."""
    nb = (len(x) + 255) // 256
    padded = np.zeros(nb * 256, np.float32)
    padded[:len(x)] = x
    r = np.zeros((nb, 64), np.float32)
    for u in range(4):
        r += padded.reshape(nb, 4, 64)[:, u, :]
    return r.reshape(-1)


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_full_rows_split_off(mode):
    c = okl.translate(ROWS, mode).source
    c = c[c.index("} else {"):]  # the split (cpu.versions copies the block for full ones)
    assert "for (; u < 4 && 64 <= N - (b * 4 + u) * 64; ++u)" in c
    assert "#pragma GCC unroll 16" in c  # 64 floats = 256 bytes, over 16
    full = c.index("#pragma GCC unroll 16")
    assert c.index("for (int t = 0; t < 64; ++t)", full) < c.index("for (; u < 4; ++u)")
    assert "for (; u < 4; ++u)" in c  # the rest as before: the guarded bound
    assert "t < ((64 < N - (b * 4 + u) * 64) ? (64) : (N - (b * 4 + u) * 64))" in c


@pytest.mark.parametrize("mode", ["serial", "openmp"])
@pytest.mark.parametrize("n", [0, 1, 63, 64, 65, 200, 256, 257, 700, 1024])
def test_same_sums(mode, n):
    dev = okl.Device(mode)
    k = dev.build_kernel_from_string(ROWS, "rows")
    x = np.random.default_rng(n).random(n, dtype=np.float32)
    nb = (n + 255) // 256
    out = dev.asarray(np.full(nb * 64 + 1, -1, np.float32))
    k(np.int32(n), dev.asarray(x if n else np.zeros(1, np.float32)), out)
    want = np.append(reference(x), np.float32(-1))
    np.testing.assert_array_equal(out.get(), want)  # every lane's order: the same bits


def _variant(old: str, new: str) -> str:
    assert old in ROWS
    return ROWS.replace(old, new)


@pytest.mark.parametrize("src", [
    # no running value: the lanes only write the slot
    _variant("if (i < N) r += x[i];", "if (i < N) r = x[i];"),
    # 512 doubles: 4 KiB of slots, more than even 32 zmm registers hold
    _variant("float r;", "double r;").replace("64", "512"),
    # the plain loop's condition is not plain arithmetic (it would run once more)
    _variant("for (int u = 0; u < 4; ++u)", "for (int u = 0; u++ < 4;)"),
    # more than the lane loop in the plain loop
    _variant("if (i < N) r += x[i];\n      }\n",
             "if (i < N) r += x[i];\n      }\n      for (int t = 0; t < 64; ++t; @inner) "
             "{ r += 1; }\n"),
    # lanes that do not start at 0 (the slots then come from a running counter)
    _variant("for (int t = 0; t < 64; ++t; @inner) {\n        const int i = (b * 4 + u) * 64 + t;",
             "for (int t = 1; t < 65; ++t; @inner) {\n"
             "        const int i = (b * 4 + u) * 64 + t - 1;"),
    # an @exclusive array, not a scalar
    _variant("float r;", "float r[2];").replace("r = 0;", "r[0] = 0;")
    .replace("r += x[i];", "r[0] += x[i];").replace("= r;", "= r[0];"),
    # an @atomic in the lanes: they are not independent
    _variant("if (i < N) r += x[i];", "if (i < N) { r += x[i]; @atomic out[0] += 1; }"),
])
def test_refused(src):
    for mode in ("serial", "openmp"):
        c = okl.translate(src, mode).source
        assert "GCC unroll" not in c
        assert "for (;" not in c


WIDE = _variant("float r;", "double r;").replace("const float *x, float *out",
                                                   "const double *x, double *out") \
    .replace("64", "256")


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_wide_slots_ask_for_512_bit_vectors(mode):
    """256 running doubles (2 KiB: 64 ymm, 32 zmm registers): split and unrolled, and the
    kernel's function asks gcc for 512-bit vectors through a macro the prologue defines
    (empty without AVX-512 or gcc); 1 KiB of slots (the float kernel) needs no such ask."""
    c = okl.translate(WIDE, mode).source
    assert "#pragma GCC unroll 128" in c  # 2048 bytes over 16
    assert "_okl_wide_vectors static void rows(" in c
    assert '__attribute__((target("prefer-vector-width=512")))' in c
    assert c.index("#define _okl_wide_vectors") < c.index("_okl_wide_vectors static void")
    assert "_okl_wide_vectors" not in okl.translate(ROWS, mode).source


@pytest.mark.parametrize("mode", ["serial", "openmp"])
@pytest.mark.parametrize("n", [0, 255, 1024, 1025, 4096, 5000])
def test_wide_same_sums(mode, n):
    dev = okl.Device(mode)
    k = dev.build_kernel_from_string(WIDE, "rows")
    x = np.random.default_rng(n).random(n)
    nb = (n + 1023) // 1024
    out = dev.asarray(np.full(nb * 256 + 1, -1.0))
    k(np.int32(n), dev.asarray(x if n else np.zeros(1)), out)
    padded = np.zeros(nb * 1024)
    padded[:n] = x
    r = np.zeros((nb, 256))
    for u in range(4):  # lane t of block b: rows u = 0..3 in order
        r += padded.reshape(nb, 4, 256)[:, u, :]
    np.testing.assert_array_equal(out.get(), np.append(r.reshape(-1), -1.0))


def test_refused_variants_still_sum():
    """The refused plain-loop condition (``u++ < 4``) runs as written."""
    src = _variant("for (int u = 0; u < 4; ++u)", "for (int u = 0; u++ < 4;)") \
        .replace("(b * 4 + u) * 64", "(b * 4 + u - 1) * 64")
    dev = okl.Device("serial")
    x = np.random.default_rng(1).random(700, dtype=np.float32)
    out = dev.asarray(np.zeros(3 * 64, np.float32))
    dev.build_kernel_from_string(src, "rows")(np.int32(700), dev.asarray(x), out)
    np.testing.assert_array_equal(out.get(), reference(x))


def test_every_row_full_only_unrolls():
    """Lanes without a guard: every row is full, nothing to split off."""
    src = _variant("if (i < N) r += x[i];", "r += x[i];")
    c = okl.translate(src, "serial").source
    assert "#pragma GCC unroll 16" in c
    assert "for (;" not in c
    dev = okl.Device("serial")
    x = np.random.default_rng(2).random(512, dtype=np.float32)
    out = dev.asarray(np.zeros(2 * 64, np.float32))
    dev.build_kernel_from_string(src, "rows")(np.int32(512), dev.asarray(x), out)
    np.testing.assert_array_equal(out.get(), reference(x))
