"""cpu.versions: a block whose rows cpu.registers split gets a second copy of its code, taken
where the full-row test holds at the row where it is weakest, without the part-row loop;
the sums keep their bits on every size (full blocks, a part block, no block); where okl
cannot prove that one row's test answers for all rows, or the copy would repeat a label,
there is no copy."""

from __future__ import annotations

import numpy as np
import pytest
from runnable import HERE, load

import okl

#: the golden case's kernel: 4 rows of 64 lanes per block into a running @exclusive sum, then
#: a @shared tree; its ``reference`` is OKL's order in float32
CASE = HERE / "golden" / "exclusive" / "blocked_sum.okl"
BLOCKED = CASE.read_text()
reference = load(CASE.with_name("blocked_sum.ref.py")).reference
FULL_TEST = "if (64 <= N - (b * 4 + (4 - 1)) * 64)"


def _variant(old: str, new: str) -> str:
    assert old in BLOCKED, old
    return BLOCKED.replace(old, new)


def _source(text: str, mode: str = "serial") -> str:
    return okl.translate(text, mode, line_directives=False).source


def _run(text: str, mode: str, x: np.ndarray) -> np.ndarray:
    """partial[] of the kernel on x (one entry past the blocks, which must stay -1)."""
    dev = okl.Device(mode)
    nb = (len(x) + 255) // 256
    out = dev.asarray(np.full(nb + 1, -1, np.float32))
    dev.build_kernel_from_string(text, "blockedSum")(
        np.int32(len(x)), dev.asarray(x if len(x) else np.zeros(1, np.float32)), out)
    return out.get()


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_full_blocks_get_a_copy_without_part_rows(mode):
    c = _source(BLOCKED, mode)
    assert c.count(FULL_TEST) == 1
    fast = c[c.index(FULL_TEST):c.index("} else {")]
    assert "for (; u < 4; ++u)" in fast and "&&" not in fast  # every row, no test per row
    assert "const int n = 32;" in fast  # the tree's levels written out (cpu.levels)
    assert "partial[b] = s[0];" in fast  # the rest of the block's code is in the copy
    split = c[c.index("} else {"):]
    assert "for (; u < 4 && 64 <= N - (b * 4 + u) * 64; ++u)" in split
    assert c.index("if (*_okl_stop)") < c.index(FULL_TEST)
    # gcc's unroll-and-jam off in that function: it paired the copy's rows
    assert "_okl_no_jam static void blockedSum(" in c
    assert '#define _okl_no_jam __attribute__((optimize("no-loop-unroll-and-jam")))' in c


@pytest.mark.parametrize("mode", ["serial", "openmp"])
@pytest.mark.parametrize("n", [0, 1, 255, 256, 257, 1000, 1024, 4096 + 77])
def test_the_sums_keep_their_bits(mode, n):
    x = (np.random.default_rng(n).standard_normal(max(n, 1)) * 1e3).astype(np.float32)[:n]
    want = reference([np.int32(n), x, None])[2]
    np.testing.assert_array_equal(_run(BLOCKED, mode, x), np.append(want, np.float32(-1)))


def test_a_rising_bound_is_tested_at_the_first_row():
    """Rows counted down from the block's end: the bound grows with u, so the first row is
    the weakest one."""
    text = _variant("const int i = (b * 4 + u) * 64 + t;",
                    "const int i = (b * 4 + 3 - u) * 64 + t;")
    assert "if (64 <= N - (b * 4 + 3 - 0) * 64)" in _source(text)
    for n in (0, 200, 256, 700, 1024):
        x = np.random.default_rng(n).random(max(n, 1), dtype=np.float32)[:n]
        # the same rows in the other order: u reads row 3 - u of the block
        nb = (n + 255) // 256
        padded = np.zeros(nb * 256, np.float32)
        padded[:n] = x
        flipped = padded.reshape(nb, 4, 64)[:, ::-1, :].reshape(-1)
        want = reference([np.int32(nb * 256), flipped, None])[2]
        np.testing.assert_array_equal(_run(text, "serial", x)[:nb], want)


def test_a_step_other_than_one_is_tested_at_its_last_row():
    text = _variant("for (int u = 0; u < 4; ++u) {", "for (int u = 0; u < 7; u += 2) {")
    c = _source(text)
    assert "if (64 <= N - (b * 4 + (0 + (7 - 1 - 0) / 2 * 2)) * 64)" in c


@pytest.mark.parametrize("old, new", [
    # an unsigned size: N - ... wraps around instead of going below the count
    ("const int N,", "const unsigned int N,"),
    # a factor of unknown sign on the rows' iterator
    ("const int i = (b * 4 + u) * 64 + t;", "const int i = (b * 4 + u * N) * 64 + t;"),
    # a size whose address is taken: a store through the pointer could change it
    ("@exclusive float r;", "@exclusive float r; const int *p = &N;"),
])
def test_no_copy_where_one_row_cannot_answer_for_all(old, new):
    c = _source(_variant(old, new))
    assert "} else {" not in c and "_okl_no_jam static" not in c
    assert " && " in c  # the split itself is still there


def test_no_copy_of_a_label():
    c = _source(_variant("if (t == 0) partial[b] = s[0];",
                         "if (t == 0) { here: partial[b] = s[0]; }"))
    assert "} else {" not in c and c.count("here:") == 1
    assert " && " in c


def test_the_gpu_has_no_copy():
    assert FULL_TEST not in _source(BLOCKED, "cuda")
