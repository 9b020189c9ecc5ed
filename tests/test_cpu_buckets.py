"""cpu.buckets: a loop over values whose @inner body runs only the lanes holding the current
value (OP2's hierarchical colouring: one edge colour after another) lists the lanes by value
once and runs the body for them in the same order -- the same (value, lane) pairs, so the
same bits -- and loops outside the pass's conditions stay as they were."""

from __future__ import annotations

import numpy as np
import pytest

import okl

B = 16
# s[l] = 0.5 * s[l] + v * (c + 1) depends on the order of the updates of one slot, lanes of
# one colour included (on a GPU those would race: this kernel is for the CPU modes)
COLOURS = """
#define B 16
@kernel void colours(const int nblk, @restrict const int *ncol, @restrict const int *col_in,
                     @restrict const int *slot_in, @restrict const double *val,
                     @restrict double *out) {
  for (int blk = 0; blk < nblk; ++blk; @outer) {
    @shared double s[B];
    @exclusive int col, l;
    @exclusive double v;
    for (int t = 0; t < B; ++t; @inner) {
      s[t] = 1.0;
      col = col_in[blk * B + t];
      l = slot_in[blk * B + t];
      v = val[blk * B + t];
    }
    for (int c = 0; c < ncol[blk]; ++c) {
      for (int t = 0; t < B; ++t; @inner) {
        if (col == c) {
          s[l] = 0.5 * s[l] + v * (c + 1);
        }
      }
    }
    for (int t = 0; t < B; ++t; @inner) {
      out[blk * B + t] = s[t];
    }
  }
}
"""


def _variant(old: str, new: str) -> str:
    assert old in COLOURS, old
    return COLOURS.replace(old, new)


def _data(nblk: int):
    g = np.random.default_rng(7)
    col = g.integers(-1, 7, size=(nblk, B)).astype(np.int32)
    ncol = g.integers(0, 8, size=nblk).astype(np.int32)
    col[1] = g.integers(14, 40, size=B)  # values past the lane count: the scan lists them
    ncol[1] = 30
    slot = g.integers(0, B, size=(nblk, B)).astype(np.int32)
    val = g.random((nblk, B))
    return ncol, col, slot, val


def _reference(ncol, col, slot, val) -> np.ndarray:
    out = np.ones(col.shape)
    for blk in range(col.shape[0]):
        s = out[blk]
        for c in range(ncol[blk]):
            for t in range(B):
                if col[blk, t] == c:
                    s[slot[blk, t]] = 0.5 * s[slot[blk, t]] + val[blk, t] * (c + 1)
    return out


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_lanes_listed_by_colour_give_the_same_bits(mode):
    c = okl.translate(COLOURS, mode, line_directives=False).source
    assert "_okl_list[_okl_first[c]++] = t;" in c  # the counting sort
    assert "if (col[t] == c) _okl_list[_okl_count++] = t;" in c  # the scan, for big values
    assert c.count("s[l[t]] = 0.5 * s[l[t]] + v[t] * (c + 1);") == 1  # the body, once
    ncol, col, slot, val = _data(9)
    dev = okl.Device(mode)
    k = dev.build_kernel_from_string(COLOURS, "colours")
    out = dev.asarray(np.full(col.size, np.nan))
    k(np.int32(len(ncol)), dev.asarray(ncol), dev.asarray(col.ravel()),
      dev.asarray(slot.ravel()), dev.asarray(val.ravel()), out)
    np.testing.assert_array_equal(out.get().reshape(col.shape),
                                  _reference(ncol, col, slot, val))


@pytest.mark.parametrize("old, new, why", [
    ("if (col == c) {\n          s[l] = 0.5 * s[l] + v * (c + 1);\n        }",
     "if (col == c) {\n          s[l] = 0.5 * s[l] + v * (c + 1);\n        } else {\n"
     "          s[l] += 0.0;\n        }", "an else branch runs for the other lanes too"),
    ("s[l] = 0.5 * s[l] + v * (c + 1);", "s[l] = 0.5 * s[l] + v * (c + 1);\n          col = -1;",
     "the body changes the lane's value"),
    ("for (int c = 0; c < ncol[blk]; ++c)", "for (int c = 1; c < ncol[blk]; ++c)",
     "the values do not start at 0"),
    ("@restrict const int *ncol", "int *ncol", "the bound is read through a pointer any "
                                               "store could reach"),
    ("@exclusive int col, l;", "@exclusive int l;\n    @exclusive long col;",
     "the lane's value is not an int"),
    ("if (col == c) {", "if (col_in[blk * B + t] == c) {",
     "the value is not an @exclusive slot"),
    ("    for (int t = 0; t < B; ++t; @inner) {\n      out[blk * B + t] = s[t];",
     "    for (int t = 0; t < B; ++t; @inner) {\n      const double col = s[t];\n"
     "      out[blk * B + t] = col;", "the value's name is declared again elsewhere"),
    ("        if (col == c) {\n          s[l] = 0.5 * s[l] + v * (c + 1);\n        }\n",
     "        if (col == c) {\n          s[l] = 0.5 * s[l] + v * (c + 1);\n        }\n"
     "        v *= 1.0;\n", "the lane loop does more than the test"),
])
def test_loops_outside_the_conditions_stay(old, new, why):
    for mode in ("serial", "openmp"):
        c = okl.translate(_variant(old, new), mode, line_directives=False).source
        assert "_okl_list" not in c, why
        assert "for (int c = " in c, why


def test_gpu_modes_keep_the_colour_loop():
    c = okl.translate(COLOURS, "cuda", line_directives=False).source
    assert "_okl_list" not in c and "for (int c = 0; c < ncol[blk]; ++c)" in c
