"""cpu.ahead: each iteration of a plain slab loop asks for its share of the lines that the
next @outer iteration reads or writes outside its slab loop (BK5's column of q loaded before
the slabs, its Aq stored after them), on the golden case columns/slab_column.  The answers
are the same to the bit, and kernels outside the pass's conditions are left as they were."""

from __future__ import annotations

import importlib.util
import pathlib
import re

import numpy as np
import pytest

import okl
import okl.transforms.cpu.lower as lower

GOLDEN = pathlib.Path(__file__).parent / "golden" / "columns"
SLAB = (GOLDEN / "slab_column.okl").read_text()
_spec = importlib.util.spec_from_file_location("slab_column_ref", GOLDEN / "slab_column.ref.py")
assert _spec is not None and _spec.loader is not None
REF = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(REF)


def _variant(old: str, new: str) -> str:
    assert old in SLAB, old
    return SLAB.replace(old, new)


def _run(dev, src: str, args: list) -> np.ndarray:
    k = dev.build_kernel_from_string(src, "slab")
    out = dev.asarray(np.full(args[3].size, np.nan))
    k(args[0], dev.asarray(args[1]), dev.asarray(args[2]), out)
    return out.get()


def _asks(c: str) -> str:
    """The block of prefetches at the top of the slab loop ('' when there is none)."""
    start = c.find("if (e + 1 < E) {")
    return "" if start < 0 else c[start:c.index("}", start)]


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_asks_for_the_next_elements_column(mode):
    c = okl.translate(SLAB, mode).source
    block = _asks(c)
    # 64 doubles of q and of out per element: two lines of each per slab, 4 slabs
    assert "for (int l = k * 16; l < k * 16 + 16; l += 8)" in block
    assert "__builtin_prefetch(&q[(e + 1) * 64 + l]);" in block
    assert "__builtin_prefetch(&out[(e + 1) * 64 + l], 1);" in block  # written: for writing
    assert "&D[" not in block  # the same lines in every element
    # the first statement of the slab loop, before its first block
    before = c[:c.index("if (e + 1 < E)")].rstrip()
    assert re.search(r"for \(int k = 0; k < 4; \+\+k\) \{\n#line \d+ \"[^\"]*\"$", before)


def test_gpu_modes_keep_the_kernel():
    for mode in ("cuda", "opencl"):
        assert "prefetch" not in okl.translate(SLAB, mode).source


@pytest.mark.parametrize("q", [4, 3])
@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_same_bits(mode, q, monkeypatch):
    """Against the translation with the pass off, and the golden case's numpy reference.
    Q = 3: 27 doubles, 4 lines, over 3 slabs: 2 lines a slab, the last slab's second line
    past the run is not asked for."""
    src = _variant("#define Q 4", f"#define Q {q}")
    if q == 3:
        block = _asks(okl.translate(src, mode).source)
        assert "for (int l = k * 16; l < k * 16 + 16 && l < 27; l += 8)" in block
    monkeypatch.setattr(REF, "Q", q)
    dev = okl.Device(mode)
    args = REF.make(np.random.default_rng(11))
    now = _run(dev, src, args)
    monkeypatch.setattr(lower, "prefetch_next_elements", lambda kernel: 0)
    assert "__builtin_prefetch" not in okl.translate(src, mode).source
    before = _run(dev, src + "\n// pass off\n", args)
    np.testing.assert_array_equal(now, before)
    np.testing.assert_allclose(now, REF.reference(args)[3], rtol=REF.RTOL)


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_checked_builds(mode):
    """check_bounds instruments every access; a prefetch is none (it reads nothing)."""
    dev = okl.Device(mode, check_bounds=True)
    assert _asks(okl.translate(SLAB, mode, check_bounds=True).source)
    args = REF.make(np.random.default_rng(5))
    np.testing.assert_allclose(_run(dev, SLAB, args), REF.reference(args)[3],
                               rtol=REF.RTOL)
    with pytest.raises(okl.OKLError):
        _run(dev, SLAB, [args[0], args[1], args[2][:-1], args[3]])


LOAD = "r_q[k] = q[((e * Q + k) * Q + j) * Q + i];"
STORE = "out[((e * Q + k) * Q + j) * Q + i] = r_col[k];"
REFUSED = {
    # the loads under a branch: the next element may not read those addresses
    "branch": (LOAD, "r_q[k] = i < 3 ? q[((e * Q + k) * Q + j) * Q + i] : 0;"),
    # not affine in the lanes
    "square": (LOAD, "r_q[k] = q[((e * Q + k) * Q + j) * Q + i * i];"),
    # a run-time value in the subscript
    "argument": (LOAD, "r_q[k] = q[((e * Q + k) * Q + j) * Q + i + E % 2];"),
    # the same lines in every element
    "no element": (LOAD, "r_q[k] = q[(k * Q + j) * Q + i];"),
    # the slab loop names the array: cpu.prefetch's business
    "in the slab loop": ("s_g[j][i] = r_t * r_q[k];", "s_g[j][i] = r_t * q[j];"),
    # the kernel points the array elsewhere
    "moved": ("  for (int e = 0; e < E; ++e; @outer) {",
              "  q = q + 0;\n  for (int e = 0; e < E; ++e; @outer) {"),
    # a local array of the argument's name: not the argument
    "shadowed": ("        r_q[k] = q[", "        const double q[512] = {0};\n        r_q[k] = q["),
}
#: refusals that leave the other array asked for, by the array still asked for
ONE_LEFT = {"branch": "out", "square": "out", "argument": "out", "no element": "out",
            "in the slab loop": "out", "moved": "out", "shadowed": "out"}
NONE_LEFT = {
    # a slab loop of one block: no arithmetic to hide the misses behind
    "one block": ("          r_t = 0;\n          for (int m = 0; m < Q; ++m) {\n"
                  "            r_t += s_D[k][m] * r_q[m];\n          }\n"
                  "          s_g[j][i] = r_t * r_q[k];\n        }\n      }\n"
                  "      for (int j = 0; j < Q; ++j; @inner(1)) {\n"
                  "        for (int i = 0; i < Q; ++i; @inner(0)) {\n",
                  "          r_t = 0;\n          for (int m = 0; m < Q; ++m) {\n"
                  "            r_t += s_D[k][m] * r_q[m];\n          }\n"
                  "          s_g[j][i] = r_t * r_q[k];\n"),
    # a slab loop of a run-time length
    "uncounted": ("\n    for (int k = 0; k < Q; ++k) {",
                  "\n    for (int k = 0; k < Q + E % 1; ++k) {"),
    # more than 512 lines an element (Q = 16: 2 x 512 lines)
    "too many lines": ("#define Q 4", "#define Q 16"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_for_one_array(case):
    old, new = REFUSED[case]
    for mode in ("serial", "openmp"):
        block = _asks(okl.translate(_variant(old, new), mode).source)
        assert f"&{ONE_LEFT[case]}[" in block and "&q[" not in block, block


@pytest.mark.parametrize("case", sorted(NONE_LEFT))
def test_refused(case):
    old, new = NONE_LEFT[case]
    src = _variant(old, new)
    for mode in ("serial", "openmp"):
        assert not _asks(okl.translate(src, mode).source)
