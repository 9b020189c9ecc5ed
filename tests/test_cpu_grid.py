"""okl.transforms.cpu.grid: a 2-D grid of blocks that only tiles two indices runs as the row
and column loops it tiles on CPUs -- the same iterations, the same answers -- and stays a
grid of tiles wherever that is not known to be so."""

from __future__ import annotations

import numpy as np
import pytest

import okl

GRID = """
@kernel void stencil(const int nx, const int ny, const float *u, float *v) {
  for (int by = 0; by < (ny - 2 + 3) / 4; ++by; @outer(1)) {
    for (int bx = 0; bx < (nx - 2 + 15) / 16; ++bx; @outer(0)) {
      for (int ly = 0; ly < 4; ++ly; @inner(1)) {
        for (int lx = 0; lx < 16; ++lx; @inner(0)) {
          const int x = 1 + bx * 16 + lx;
          const int y = 1 + ly + by * 4;
          if (x < nx - 1 && y < ny - 1) {
            const long c = (long) y * nx + x;
            v[c] = u[c + 1] + u[c - 1] + u[c + nx] - 2 * u[c - nx];
          }
        }
      }
    }
  }
}
"""


def _function(source: str, name: str) -> str:
    start = source.index(f"static void {name}(")
    return source[start:source.index("\n}\n", start)]


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_grid_becomes_rows(mode):
    c = _function(okl.translate(GRID, mode, line_directives=False).source, "stencil")
    assert "for (int ly = 0; ly < (ny - 2 + 3) / 4 * 4; ++ly)" in c
    assert "const int x = 1 + lx;" in c and "const int y = 1 + ly;" in c
    assert "bx" not in c and "by" not in c
    assert "collapse" not in c  # one parallel loop: the rows


@pytest.mark.parametrize("mode", ["serial", "openmp"])
@pytest.mark.parametrize("nx,ny", [(3, 3), (17, 5), (18, 6), (40, 11), (2, 9)])
def test_grid_same_answer(mode, nx, ny):
    k = okl.Device(mode).build_kernel_from_string(GRID, "stencil")
    u = np.random.default_rng(nx * ny).random((ny, nx)).astype(np.float32)
    v = np.full((ny, nx), -7, np.float32)
    k(nx, ny, u.ravel(), v.reshape(-1))
    want = np.full((ny, nx), -7, np.float32)
    want[1:-1, 1:-1] = u[1:-1, 2:] + u[1:-1, :-2] + u[2:, 1:-1] - 2 * u[:-2, 1:-1]
    np.testing.assert_allclose(v, want, rtol=1e-6)


def _variant(old: str, new: str) -> str:
    assert old in GRID
    return GRID.replace(old, new)


KEPT = {
    # a transpose's strided stores: the tile keeps them in cache
    "strided": _variant("v[c] = u[c + 1]", "v[x * ny + y] = u[c + 1]"),
    # per-block storage
    "shared": _variant("      for (int ly = 0; ly < 4; ++ly; @inner(1)) {",
                       "      @shared float s[4];\n"
                       "      for (int ly = 0; ly < 4; ++ly; @inner(1)) {"),
    # a block index used alone
    "block_alone": _variant("v[c] = u[c + 1]", "v[c] = bx + u[c + 1]"),
    # a tile width that is not the lanes' count
    "other_width": _variant("const int x = 1 + bx * 16 + lx;", "const int x = 1 + bx * 8 + lx;"),
    # the row's lanes with the column's blocks
    "crossed": _variant("const int y = 1 + ly + by * 4;", "const int y = 1 + ly + bx * 4;"),
    # a lane index subtracted
    "subtracted": _variant("const int x = 1 + bx * 16 + lx;", "const int x = 1 + bx * 16 - lx;"),
}


@pytest.mark.parametrize("case", sorted(KEPT))
def test_grid_kept_where_not_known_same(case):
    c = _function(okl.translate(KEPT[case], "serial", line_directives=False).source,
                  "stencil")
    assert "for (int bx = 0;" in c

