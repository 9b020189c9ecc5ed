"""cpu.levels: the innermost plain loop around lanes over a short geometric sequence (a
tree's levels) becomes one copy of its body per level, the iterator a constant in each;
every other loop stays a loop; and the sums keep their bits (the same adds in the same
order as OKL's tree)."""

from __future__ import annotations

import numpy as np
import pytest

import okl

TREE = """
@kernel void tree(const int nb, @restrict const float *x, @restrict float *out) {
  for (int b = 0; b < nb; ++b; @outer) {
    @shared float s[64];
    for (int t = 0; t < 64; ++t; @inner) {
      s[t] = x[b * 64 + t];
    }
    for (int n = 64 / 2; n > 0; n /= 2) {
      for (int t = 0; t < 64; ++t; @inner) {
        if (t < n) s[t] += s[t + n];
      }
    }
    for (int t = 0; t < 64; ++t; @inner) {
      if (t == 0) out[b] = s[0];
    }
  }
}
"""
HEADER = "for (int n = 64 / 2; n > 0; n /= 2)"


def _variant(header: str, body: str | None = None) -> str:
    text = TREE.replace(HEADER, header)
    if body is not None:
        text = text.replace("if (t < n) s[t] += s[t + n];", body)
    return text


def _source(text: str, mode: str = "serial") -> str:
    return okl.translate(text, mode, line_directives=False).source


def _levels(c: str, name: str = "n") -> list[int]:
    """The constants of the copies: ``const T n = v;`` lines."""
    out = []
    for line in c.splitlines():
        words = line.strip().rstrip(";").split()
        if words[:1] == ["const"] and "=" in words and words[words.index("=") - 1] == name:
            out.append(int(words[-1]))
    return out


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_each_level_is_a_copy_with_a_constant(mode):
    c = _source(TREE, mode)
    assert _levels(c) == [32, 16, 8, 4, 2, 1]
    assert "n /= 2" not in c


@pytest.mark.parametrize("header, levels", [
    ("for (int n = 1; n < 64; n *= 2)", [1, 2, 4, 8, 16, 32]),
    ("for (int n = 32; n >= 1; n >>= 1)", [32, 16, 8, 4, 2, 1]),
    ("for (unsigned int n = 1; n != 64; n <<= 1)", [1, 2, 4, 8, 16, 32]),
    ("for (long n = 48; n > 0; n /= 3)", [48, 16, 5, 1]),
])
def test_steps_gcc_cannot_count(header, levels):
    c = _source(_variant(header, "if (t < 1) s[t] += s[t + 1];"))
    assert _levels(c) == levels
    kind = header.split("(")[1].split(" n =")[0]
    assert c.count(f"const {kind} n = ") == len(levels)  # the iterator's own type


@pytest.mark.parametrize("header, body, step", [
    ("for (int n = 32; n > 0; n -= 8)", None, "n -= 8"),  # a step gcc counts itself
    ("for (int n = 32; n > 0; n /= 2)", "if (t < n) s[t] += s[t + n]; n += 0;", "n /= 2"),
    ("for (int n = 32; n > 0; n /= 2)", "if (t < n) { s[t] += s[t + n]; int *p = &n; }",
     "n /= 2"),  # its address taken
    ("for (int n = 1; n < (1 << 20); n *= 2)", "if (t < 1) s[t] += s[t + 1];",
     "n *= 2"),  # 20 levels
    ("for (int n = 1 << 28; n > 0; n <<= 1)", "if (t < 1) s[t] += s[t + 1];",
     "n <<= 1"),  # overflows
    ("for (int n = nb; n > 0; n /= 2)", "if (t < 1) s[t] += s[t + 1];", "n /= 2"),
])
def test_other_loops_stay_loops(header, body, step):
    c = _source(_variant(header, body))
    assert _levels(c) == []
    assert step in c


def test_a_level_loop_that_leaves_early_stays_a_loop():
    old = "for (int t = 0; t < 64; ++t; @inner) {\n        if (t < n)"
    assert old in TREE
    text = TREE.replace(old, "if (x[0] < 0) break;\n      " + old)
    assert _levels(_source(text)) == []


def test_only_the_innermost_plain_loop_around_lanes():
    c = _source(_variant("for (int k = 2; k <= 4; k *= 2) for (int n = 32; n > 0; n /= 2)"))
    assert "k *= 2" in c  # its body holds a plain loop
    assert _levels(c) == []  # n starts at k's: not a constant inside k's loop


def test_the_gpu_keeps_the_loop():
    assert HEADER in _source(TREE, "cuda")


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_the_sums_keep_their_bits(mode):
    nb = 37
    x = np.random.default_rng(5).standard_normal(nb * 64).astype(np.float32) * 1e3
    dev = okl.Device(mode)
    k = dev.build_kernel_from_string(TREE, "tree")
    out = dev.asarray(np.zeros(nb, np.float32))
    k(np.int32(nb), dev.asarray(x), out)
    s = x.reshape(nb, 64).copy()
    n = 32
    while n > 0:  # OKL's order: level by level, each lane's add in float32
        s[:, :n] += s[:, n:2 * n]
        n //= 2
    np.testing.assert_array_equal(out.get(), s[:, 0])
