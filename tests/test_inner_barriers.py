"""Barriers inside @inner loops: split into regions on the CPU modes, refused on every mode
where not every @inner iteration reaches them (okl.model.uniformity,
okl.transforms.cpu.barriers, okl.transforms.gpu.tile_checks).

The kernels of tests/golden/barrier/inner_*.okl run against numpy on every mode
(tests/test_execute.py); these are the placements around them: each placement that is split
runs here on every mode, each one that is refused is refused on every mode, at the barrier.
"""

from __future__ import annotations

import numpy as np
import pytest
from modes import ALL, device, params

import okl
from okl.errors import OKLError, TranslationError


def run(mode: str, source: str, name: str, args: list) -> list:
    """Build ``name`` from ``source`` on ``mode``, run it on ``args`` and return every
    argument after the run (arrays as numpy arrays)."""
    dev = device(mode)
    kernel = dev.build_kernel_from_string(source, name)
    dargs = [dev.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    kernel(*dargs)
    dev.finish()
    return [a.get() if hasattr(a, "get") else a for a in dargs]


def refused(source: str, mode: str) -> list[str]:
    with pytest.raises(TranslationError) as info:
        okl.translate(source, mode)
    return [f"{d.loc.line}: {d.message}" for d in info.value.diagnostics
            if d.severity == "error"]


# -- placements that are split ----------------------------------------------------------------

#: two nested sequential loops, a uniform if/else, a private array and scalars that live
#: across barriers, two sibling blocks that both declare 'tmp', a per-row value of a 2-D
#: block: the sum over each row of a block, written by every thread of the row
NESTED = """
@kernel void rows(const int nb, const int flip, const float *x, float *y) {
  for (int b = 0; b < nb; ++b; @outer) {
    @shared float s[4][16];
    for (int j = 0; j < 4; ++j; @inner(1)) {
      const int row = b * 64 + j * 16;
      for (int i = 0; i < 16; ++i; @inner(0)) {
        s[j][i] = x[row + i];
        float keep[2];
        keep[0] = s[j][i];
        for (int w = 8; w > 0; w /= 2) {
          {
            float tmp = 0.0f;
            @barrier;
            if (i < w) tmp = s[j][i + w];
            @barrier;
            s[j][i] += tmp;
          }
          {
            int tmp = w;
            @barrier;
            keep[1] = tmp;
          }
        }
        @barrier;
        if (flip) {
          y[row + i] = s[j][0] + 0.0f * keep[1];
        } else {
          @barrier;
          y[row + i] = s[j][0] - keep[0];
        }
      }
    }
  }
}
"""


@pytest.mark.parametrize("mode", params())
@pytest.mark.parametrize("flip", [0, 1])
def test_nested_loops_uniform_ifs_and_private_values(mode: str, flip: int) -> None:
    x = np.random.default_rng(7).random(3 * 64).astype(np.float32)
    y = run(mode, NESTED, "rows", [3, flip, x, np.zeros_like(x)])[3]
    sums = x.reshape(3, 4, 16).sum(axis=2, keepdims=True)
    want = np.broadcast_to(sums, (3, 4, 16)) - (0 if flip else x.reshape(3, 4, 16))
    np.testing.assert_allclose(y.reshape(3, 4, 16), want, rtol=1e-5, atol=1e-5)


#: @inner loops that do not run 0, 1, 2, ...: the slot of a thread is its iteration number
ODD_LOOPS = """
@kernel void odd(const int nb, const int n, const int *x, int *y) {
  for (int b = 0; b < nb; ++b; @outer) {
    for (int t = 2 * n - 1; t >= 1; t -= 2; @inner) {
      int v = x[b * n + (t - 1) / 2];
      @barrier;
      y[b * n + (t - 1) / 2] = v * 3;
    }
  }
}
"""


@pytest.mark.parametrize("mode", params())
def test_loops_that_count_down_by_two_with_a_runtime_extent(mode: str) -> None:
    x = np.arange(2 * 24, dtype=np.int32)
    y = run(mode, ODD_LOOPS, "odd", [2, 24, x, np.zeros_like(x)])[3]
    np.testing.assert_array_equal(y, 3 * x)


#: the barrier of a warp: a block-wide barrier on the CPU modes (and OpenCL), __syncwarp
#: on CUDA and HIP -- the same answer, since every thread reaches it
WARP = """
@kernel void warpSum(const int nb, const int *x, int *y) {
  for (int b = 0; b < nb; ++b; @outer) {
    @shared int s[32];
    for (int t = 0; t < 32; ++t; @inner) {
      s[t] = x[b * 32 + t];
      for (int w = 16; w > 0; w /= 2) {
        @barrier("warp");
        const int other = t < w ? s[t + w] : 0;
        @barrier("warp");
        s[t] += other;
      }
      if (t == 0) y[b] = s[0];
    }
  }
}
"""


@pytest.mark.parametrize("mode", params())
def test_warp_barriers_inside_inner_loops(mode: str) -> None:
    x = np.random.default_rng(3).integers(-99, 99, 4 * 32).astype(np.int32)
    y = run(mode, WARP, "warpSum", [4, x, np.zeros(4, np.int32)])[2]
    np.testing.assert_array_equal(y, x.reshape(4, 32).sum(axis=1))


def test_warp_barriers_stay_warp_barriers_on_cuda() -> None:
    assert "__syncwarp()" in okl.translate(WARP, "cuda").source
    assert "__syncwarp" not in okl.translate(WARP, "serial").source


#: a @tile with a barrier and an @exclusive, 2-D: both tile checks apply to each region
TILE_2D = """
@kernel void tile2(const int n, const float *x, float *tmp, float *y) {
  for (int j = 0; j < n; ++j; @tile(8, @outer(1), @inner(1))) {
    for (int i = 0; i < n; ++i; @tile(8, @outer(0), @inner(0))) {
      const float mine = x[j * n + i];
      tmp[j * n + i] = 2.0f * mine;
      @barrier;
      const float right = i % 8 < 7 && i + 1 < n ? tmp[j * n + i + 1] : 0.0f;
      @barrier;
      y[j * n + i] = mine + right;
    }
  }
}
"""


@pytest.mark.parametrize("mode", params())
def test_barriers_in_two_dimensional_tiles(mode: str) -> None:
    n = 19
    x = np.random.default_rng(5).random(n * n).astype(np.float32)
    y = run(mode, TILE_2D, "tile2", [n, x, np.zeros_like(x), np.zeros_like(x)])[3]
    x2 = x.reshape(n, n)
    right = np.zeros_like(x2)
    cols = np.arange(n - 1)
    keep = cols % 8 < 7
    right[:, cols[keep]] = 2 * x2[:, cols[keep] + 1]
    np.testing.assert_allclose(y.reshape(n, n), x2 + right, rtol=1e-6)


def test_kernels_without_such_barriers_translate_as_before() -> None:
    """The split is only for @inner loops that hold a barrier: one between blocks leaves the
    loops alone (the golden corpus holds the exact texts)."""
    source = """
@kernel void k(const int nb, float *x) {
  for (int b = 0; b < nb; ++b; @outer) {
    @shared float s[8];
    for (int t = 0; t < 8; ++t; @inner) { s[t] = x[b * 8 + t]; }
    @barrier;
    for (int t = 0; t < 8; ++t; @inner) { x[b * 8 + t] = s[7 - t]; }
  }
}
"""
    text = okl.translate(source, "serial").source
    assert text.count("for (int t = 0; t < 8; ++t)") == 2


# -- placements that are refused ---------------------------------------------------------------

DIVERGENT = {
    "if on the index": ("if (t < 16) { @barrier; }", "'if (t < 16)'"),
    "loop bound from the index": (
        "int m = t / 4; for (int k = 0; k < m; ++k) { @barrier; }", "'m'"),
    "early break": (
        "for (int k = 0; k < 4; ++k) { if (t == k) break; @barrier; }", "a break under"),
    "loaded from memory": ("if (x[b] > 0.0f) { @barrier; }", "reads memory"),
    "a call with pointers": ("if (f(x)) { @barrier; }", "a function with pointers"),
    "an exclusive": ("if (e > 0.0f) { @barrier; }", "'e', an @exclusive"),
    "address taken": ("int q = 1; g(&q); if (q) { @barrier; }", "whose address is taken"),
    "switch": ("switch (nb) { case 1: @barrier; break; }", "switch"),
}

TEMPLATE = """float f(const float *p) {{ return p[0]; }}
void g(int *p) {{ *p = 0; }}
@kernel void k(const int nb, float *x) {{
  for (int b = 0; b < nb; ++b; @outer) {{
    @exclusive float e;
    for (int t = 0; t < 32; ++t; @inner) {{
      e = x[t];
      {body}
      x[b * 32 + t] = 1.0f;
    }}
  }}
}}
"""


@pytest.mark.parametrize("mode", ALL)
@pytest.mark.parametrize("case", sorted(DIVERGENT))
def test_divergent_barriers_are_refused_at_the_barrier_on_every_mode(case: str,
                                                                     mode: str) -> None:
    body, words = DIVERGENT[case]
    errors = refused(TEMPLATE.format(body=body), mode)
    assert len(errors) == 1 and errors[0].startswith("8: ") and words in errors[0], errors


@pytest.mark.parametrize("mode", ALL)
def test_uniform_conditions_are_accepted(mode: str) -> None:
    body = "const int half = nb / 2; if (half > 1 && b % 2 == 0) { @barrier; } " \
           "for (int k = half; k < 2 * half; k += 1) { @barrier; }"
    okl.translate(TEMPLATE.format(body=body), mode)


@pytest.mark.parametrize("mode", params(("serial", "openmp", "opencl")))
def test_a_divergent_barrier_never_reaches_a_device(mode: str) -> None:
    """It crashed the interpreter in PoCL (a segmentation fault) before the check."""
    body, _ = DIVERGENT["if on the index"]
    with pytest.raises(OKLError):
        device(mode).build_kernel_from_string(TEMPLATE.format(body=body), "k")


@pytest.mark.parametrize("mode", ("serial", "openmp"))
def test_a_counter_changed_by_every_thread_is_refused_on_cpu_modes(mode: str) -> None:
    """The counter of a loop moved out of the @inner loops is one variable for the block:
    each thread changing it would change it once per thread."""
    body = "for (int k = 0; k < 8; ++k) { @barrier; k += 0; }"
    errors = refused(TEMPLATE.format(body=body), mode)
    assert any("the counter of a loop around a @barrier" in e for e in errors), errors
    body = "int k; for (k = 0; k < 8; ++k) { @barrier; }"
    errors = refused(TEMPLATE.format(body=body), mode)
    assert any("is changed by the header of a loop" in e for e in errors), errors


def test_the_split_text_is_separate_blocks() -> None:
    """The tree reduction of the issue, on serial: the levels over w outside (one copy per
    level: cpu.levels), one @inner loop per region, no per-thread copies (nothing lives
    across a barrier)."""
    source = open(__file__.replace("test_inner_barriers.py",
                                   "golden/barrier/inner_reduction.okl")).read()
    text = okl.translate(source, "serial", line_directives=False).source
    body = text[text.index("for (int b"):]
    assert body.index("for (int t") < body.index("const int w = 32;") < \
        body.index("for (int t", body.index("const int w = 32;"))
    assert "[t] =" not in body.replace("s[t] =", "")


@pytest.mark.parametrize("mode", params(("serial", "openmp", "opencl")))
def test_checked_mode_guards_the_split_loops(mode: str) -> None:
    """okl's checked mode sees the regions as blocks: an access past the end after a barrier
    is reported at its line."""
    source = """
@kernel void k(const int nb, const float *x, float *out) {
  for (int b = 0; b < nb; ++b; @outer) {
    @shared float s[16];
    for (int t = 0; t < 16; ++t; @inner) {
      s[t] = x[b * 16 + t];
      @barrier;
      out[b * 16 + t + 1] = s[15 - t];
    }
  }
}
"""
    dev = okl.Device(mode, check_bounds=True)
    kernel = dev.build_kernel_from_string(source, "k")
    x = dev.asarray(np.arange(32, dtype=np.float32))
    with pytest.raises(okl.LaunchError, match=r":8:"):
        kernel(2, x, dev.zeros(32, np.float32))
        dev.finish()


#: a 3-D block with barriers at two depths: between two @inner(0) loops inside @inner(1),
#: and inside an @inner(0) loop; a per-(k, j) value and a per-thread value across them
THREE_D = """
@kernel void cube(const int nb, const int *x, int *y) {
  for (int b = 0; b < nb; ++b; @outer) {
    @shared int s[2][3][4];
    for (int k = 0; k < 2; ++k; @inner(2)) {
      for (int j = 0; j < 3; ++j; @inner(1)) {
        const int row = (b * 2 + k) * 3 + j;
        for (int i = 0; i < 4; ++i; @inner(0)) {
          s[k][j][i] = x[row * 4 + i];
        }
        @barrier;
        for (int i = 0; i < 4; ++i; @inner(0)) {
          int v = s[k][j][(i + 1) % 4] + s[1 - k][2 - j][i];
          @barrier;
          s[k][j][i] = v;
          @barrier;
          y[row * 4 + i] = s[k][j][3 - i] * 10 + k;
        }
      }
    }
  }
}
"""


@pytest.mark.parametrize("mode", params())
def test_three_dimensional_blocks_with_barriers_at_two_depths(mode: str) -> None:
    x = np.random.default_rng(11).integers(-50, 50, 3 * 24).astype(np.int32)
    y = run(mode, THREE_D, "cube", [3, x, np.zeros_like(x)])[2]
    s = x.reshape(3, 2, 3, 4)
    v = np.roll(s, -1, axis=3) + s[:, ::-1, ::-1, :]
    want = v[:, :, :, ::-1] * 10 + np.arange(2).reshape(1, 2, 1, 1)
    np.testing.assert_array_equal(y.reshape(3, 2, 3, 4), want)


def test_names_resolve_by_scope_and_struct_members_are_not_names() -> None:
    """okl.model.scopes: a use binds the declaration in scope; a struct's member named like
    a variable does not hide it."""
    from pycparser import c_parser

    from okl.model.scopes import bindings
    fn = c_parser.CParser().parse(
        "void f() { int x = 1; struct { int x; } v; { int x = 2; v.x = x; } v.x = x; }").ext[0]
    items = fn.body.block_items
    binds = bindings(fn)
    inner, outer = items[2].block_items[1].rvalue, items[3].rvalue
    assert binds[id(inner)] is items[2].block_items[0]
    assert binds[id(outer)] is items[0]
