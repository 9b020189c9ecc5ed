"""cpu.prefetch: the top of each iteration of a plain slab loop asks for the lines of const
arguments that the next iteration reads (the next @outer iteration's first slab after the
last), when the subscripts are affine and the runs short (BK5's ggeo at N = 3).  The
answers are the same to the bit, and kernels outside the pass's conditions are left as they
were."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import okl
import okl.transforms.cpu.lower as lower

SLAB = (pathlib.Path(__file__).parent / "golden" / "prefetch" / "slab_prefetch.okl").read_text()
Q = 4


def _variant(old: str, new: str) -> str:
    assert old in SLAB, old
    return SLAB.replace(old, new)


def _run(dev, src: str, g: np.ndarray, q: np.ndarray) -> np.ndarray:
    E = q.size // Q**3
    k = dev.build_kernel_from_string(src, "slab")
    out = dev.asarray(np.full(E * Q**3, np.nan))
    k(np.int32(E), dev.asarray(g), dev.asarray(q), out)
    return out.get()


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_prefetches_the_next_slab(mode):
    c = okl.translate(SLAB, mode).source
    assert "if (k + 1 < 4 || e + 1 < E)" in c
    # slab k + 1 of this element, or slab 0 of the next after the last
    assert "const int g__next = (k + 1 < 4) ? (e * 128 + (k + 1) * 16) : ((e + 1) * 128);" in c
    assert "__builtin_prefetch(&g[g__next + l]);" in c
    assert "__builtin_prefetch(&g[g__next + 64 + l]);" in c  # the second run, 64 doubles on
    assert "const int q__next = (k + 1 < 4) ? (e * 64 + (k + 1) * 16) : ((e + 1) * 64);" in c
    assert c.count("for (int l = 0; l < 16; l += 8)") == 2  # a line at a time
    # before the slab's first block
    assert c.index("__builtin_prefetch") < c.index("const int n = ")


def test_gpu_modes_keep_the_kernel():
    for mode in ("cuda", "opencl"):
        assert "prefetch" not in okl.translate(SLAB, mode).source


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_same_bits(mode, monkeypatch):
    """Against the translation with the pass off, and numpy."""
    dev = okl.Device(mode)
    rng = np.random.default_rng(7)
    E = 5
    g = rng.random(E * 2 * Q**3) * 2 - 1
    q = rng.random(E * Q**3) * 2 - 1
    now = _run(dev, SLAB, g, q)
    monkeypatch.setattr(lower, "prefetch_next_slabs", lambda kernel: 0)
    before = _run(dev, SLAB + "\n// pass off\n", g, q)
    assert "__builtin_prefetch" not in okl.translate(SLAB, mode).source
    assert np.array_equal(now, before)
    a = g.reshape(E, 2, Q, Q, Q)[:, 0] * q.reshape(E, Q, Q, Q) + g.reshape(E, 2, Q, Q, Q)[:, 1]
    np.testing.assert_allclose(now, (a.transpose(0, 1, 3, 2) - 2 * a).ravel(), rtol=1e-13)


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_checked_builds_leave_the_hints_alone(mode):
    """check_bounds instruments every array access of a kernel; a prefetch reads nothing,
    so its address is not one (it had no source position either: the checked build
    crashed with an AttributeError).  The checked kernel gives the same values (not the
    same bits: a checked loop is not vectorised, and the compiler contracts its sums
    differently), and still refuses a real out-of-bounds read."""
    dev = okl.Device(mode, check_bounds=True)
    assert "__builtin_prefetch" in okl.translate(SLAB, mode, check_bounds=True).source
    rng = np.random.default_rng(3)
    E = 3
    g = rng.random(E * 2 * Q**3)
    q = rng.random(E * Q**3)
    np.testing.assert_allclose(_run(dev, SLAB, g, q), _run(okl.Device(mode), SLAB, g, q),
                               rtol=1e-13, atol=1e-14)
    with pytest.raises(okl.OKLError):
        _run(dev, SLAB, g[:-1], q)


REFUSED = {
    # loads under a branch: the next slab may not read those addresses
    "branch": ("s_a[j][i] = g[n] * q[((e * Q + k) * Q + j) * Q + i] + g[n + Q * Q * Q];",
               "s_a[j][i] = i < 3 ? g[n] * q[((e * Q + k) * Q + j) * Q + i] : g[n + Q * Q * Q];"),
    # not affine in the lanes
    "square": ("const int n = e * 2 * Q * Q * Q + k * Q * Q + j * Q + i;",
               "const int n = e * 2 * Q * Q * Q + k * Q * Q + j * j + i;"),
    # a run-time value in the subscript
    "argument": ("g[n + Q * Q * Q]", "g[n + E % 2]"),
    # the same lines in every element (the next element reads nothing new)
    "no element": ("const int n = e * 2 * Q * Q * Q + ", "const int n = "),
    # the same lines in every slab
    "no slab": ("const int n = e * 2 * Q * Q * Q + k * Q * Q + j * Q + i;",
                "const int n = e * 2 * Q * Q * Q + j * Q + i;"),
    # runs of 4 lines and more: the hardware prefetcher follows those (8 lines, 4.5 lines)
    "long runs": ("#define Q 4", "#define Q 8"),
    "runs of 4.5 lines": ("#define Q 4", "#define Q 6"),
    # written arrays are not asked for
    "not const": ("@restrict const double *g, @restrict const double *q",
                  "@restrict double *g, @restrict double *q"),
    # a local array of the argument's name: not the argument
    "shadowed": ("          const int n = ",
                 "          const double g[2 * Q * Q * Q] = {0};\n          const int n = "),
    # a slab loop of a run-time length
    "uncounted": ("for (int k = 0; k < Q; ++k) {", "for (int k = 0; k < Q + E % 1; ++k) {"),
    # a slab loop that the next element may skip
    "slabs under a branch": ("    for (int k = 0; k < Q; ++k) {",
                             "    if (e + 2 < E)\n    for (int k = 0; k < Q; ++k) {"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused(case):
    old, new = REFUSED[case]
    src = _variant(old, new)
    if case in ("square", "argument", "no element", "no slab", "shadowed"):
        # q's loads still qualify; g's do not
        c = okl.translate(src, "serial").source
        assert "q__next" in c and "g__next" not in c
    else:
        assert "__builtin_prefetch" not in okl.translate(src, "serial").source
        assert "__builtin_prefetch" not in okl.translate(src, "openmp").source

