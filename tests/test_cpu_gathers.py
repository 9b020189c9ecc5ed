"""cpu.gathers: a loop that loads through an index array asks, at the top of each iteration,
for the lines the iteration AHEAD later will gather -- computing their addresses only from
what that iteration itself reads -- and the answers stay the same; loops outside the pass's
conditions get no prefetch."""

from __future__ import annotations

import numpy as np
import pytest

import okl
from okl.transforms.cpu.gathers import AHEAD

B = 16
GATHER = """
#define B 16
@kernel void gather(const int n, @restrict const int *map, @restrict const int *flag,
                    @restrict const double *x, @restrict double *y) {
  for (int b = 0; b < (n + B - 1) / B; ++b; @outer) {
    @exclusive int on;
    for (int t = 0; t < B; ++t; @inner) {
      const int i = b * B + t;
      on = flag[i];
      if (on > 0) {
        const int j = map[2 * i], k = map[2 * i + 1];
        y[i] = 2.0 * x[j] + x[k + 1];
      } else {
        y[i] = -1.0;
      }
    }
  }
}
"""


def _variant(old: str, new: str) -> str:
    assert old in GATHER, old
    return GATHER.replace(old, new)


def _source(text: str, mode: str = "serial") -> str:
    return okl.translate(text, mode, line_directives=False).source


def test_the_block_reads_what_the_later_iteration_reads():
    c = _source(GATHER)
    block = c[c.index(f"if (t + {AHEAD} < 16)"):c.index("const int i = b * 16 + t;")]
    assert f"const int _okl_ahead = t + {AHEAD};" in block
    assert "const int i = b * 16 + _okl_ahead;" in block
    assert "if (flag[i] > 0)" in block  # the slot on[t] read as the value stored in it
    assert "__builtin_prefetch(&x[j]);" in block and "__builtin_prefetch(&x[k + 1]);" in block
    assert "y[" not in block  # y[i] is no gather: its subscript reads no index array
    assert block.count("__builtin_prefetch") == 2


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_the_answers_stay_the_same(mode):
    n = 1000  # not a multiple of B: the last block's lanes past n read flag's padding
    g = np.random.default_rng(3)
    size = (n + B - 1) // B * B
    flag = g.integers(-1, 2, size=size).astype(np.int32)
    m = g.integers(0, 4000, size=2 * size).astype(np.int32)
    x = g.random(4001)
    dev = okl.Device(mode)
    k = dev.build_kernel_from_string(GATHER, "gather")
    y = dev.asarray(np.zeros(size))
    k(np.int32(n), dev.asarray(m), dev.asarray(flag), dev.asarray(x), y)
    want = np.where(flag > 0, 2.0 * x[m[0::2]] + x[m[1::2] + 1], -1.0)
    np.testing.assert_array_equal(y.get()[:n], want[:n])


def test_only_the_lines_not_asked_for_yet():
    text = _variant("y[i] = 2.0 * x[j] + x[k + 1];",
                    "y[i] = 2.0 * x[j] + x[j + 1] + x[j + 7] + x[j + 8] + x[k];")
    c = _source(text)
    assert "__builtin_prefetch(&x[j]);" in c and "__builtin_prefetch(&x[j + 8]);" in c
    assert "__builtin_prefetch(&x[j + 1]);" not in c and "&x[j + 7]" not in c


def test_a_store_through_an_index_is_asked_for_writing():
    text = _variant("y[i] = 2.0 * x[j] + x[k + 1];", "y[j] = 2.0 * x[k];")
    c = _source(text)
    assert "__builtin_prefetch(&y[j], 1);" in c and "__builtin_prefetch(&x[k]);" in c


@pytest.mark.parametrize("old, new, why", [
    ("@restrict const int *map", "int *map",
     "the index array is not read-only: a store of the loop could change it"),
    ("on = flag[i];", "on = y[i] > 0.0 ? 1 : flag[i];",
     "the test reads an array the kernel writes"),
    ("on = flag[i];", "on = flag[i];\n      if (on == 7) on = 1;",
     "the slot is stored to twice"),
    ("const int j = map[2 * i], k = map[2 * i + 1];",
     "const int j = map[map[2 * i]], k = b;",
     "j is itself gathered (map[j] is asked for instead) and k is the same for every i"),
])
def test_gathers_outside_the_conditions_are_not_asked_for(old, new, why):
    c = _source(_variant(old, new))
    assert "__builtin_prefetch(&x" not in c, why


LOOP = """
@kernel void sums(const int n, const int m, @restrict const int *map,
                  @restrict const double *x, @restrict double *y) {
  for (int b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 1; ++t; @inner) {
      double s = 0.0;
      for (int j = 0; j < m; ++j) {
        s += x[map[b * m + j]];
      }
      y[b] = s;
    }
  }
}
"""


def test_a_plain_loop_gathers_ahead():
    c = _source(LOOP)
    assert f"if (j + {AHEAD} < m)" in c and "__builtin_prefetch(&x[map[b * m + _okl_ahead]]);" in c


@pytest.mark.parametrize("old, new, why", [
    ("s += x[map[b * m + j]];", "if (x[j] < 0.0) break;\n        s += x[map[b * m + j]];",
     "the loop may end early: iteration j + AHEAD may not run"),
    ("for (int j = 0; j < m; ++j)", "for (int j = 0; j < m; j += 2)", "a step other than 1"),
    ("s += x[map[b * m + j]];", "s += x[map[b * m + j]];\n        if (s > 1e300) j = m;",
     "the body writes the iterator"),
    ("s += x[map[b * m + j]];", "s += x[map[b]];", "the gather does not change with j"),
    ("for (int j = 0; j < m; ++j)", f"for (int j = 0; j < {AHEAD}; ++j)",
     "no iteration has one AHEAD after it"),
])
def test_loops_outside_the_conditions_get_no_block(old, new, why):
    assert old in LOOP
    c = _source(LOOP.replace(old, new))
    assert "__builtin_prefetch" not in c, why


def test_gpu_modes_get_no_prefetch():
    assert "__builtin_prefetch" not in _source(GATHER, "cuda")
