"""CPU lowering for speed (okl.transforms.cpu.guards, cpu_simd, cpu_transpose), always
without changing which iterations run or what they compute."""

from __future__ import annotations

import re

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


DIVMOD = """
@kernel void tr(const int E, const double *x, double *y) {
  for (int e = 0; e < E; ++e; @outer) {
    for (int t = 0; t < 12; ++t; @inner) {
      y[e * 12 + t] = x[e * 12 + (t % 4) * 3 + t / 4] + t;
    }
  }
}

@kernel void quot(const int E, int *z) {
  for (int e = 0; e < E; ++e; @outer) {
    for (int t = 0; t < 10; ++t; @inner) {
      z[e * 10 + t] = t / 4;
    }
  }
}
"""


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_divmod_lanes_split(mode):
    """A lane loop using t / 4 and t % 4 counts t in a 3 x 4 nest (cpu_divmod); one of 10
    lanes (4 does not divide 10) stays as it was."""
    c = okl.translate(DIVMOD, mode, line_directives=False).source
    assert "#pragma GCC unroll 3\n    for (int t__hi = 0; t__hi < 3; ++t__hi)" in c
    assert "#pragma GCC ivdep\n      for (int t__lo = 0; t__lo < 4; ++t__lo)" in c
    assert "const int t = t__hi * 4 + t__lo;" in c
    assert "x[e * 12 + t__lo * 3 + t__hi] + t" in c
    assert "z[e * 10 + t] = t / 4" in c and c.count("t__hi <") == 1
    # the kernel with the unrolled nest prefers 256-bit vectors (where gcc has AVX-512 to
    # choose from); the other kernel is as it was
    assert "_okl_narrow_vectors static void tr(" in c and "static void quot(" in c
    assert c.index("#define _okl_narrow_vectors") < c.index("_okl_narrow_vectors static")
    assert "prefer-vector-width=256" in c
    dev = okl.Device(mode)
    x = np.random.default_rng(3).random(24)
    y, z = dev.zeros(24, np.float64), dev.zeros(20, np.int32)
    dev.build_kernel_from_string(DIVMOD, "tr")(np.int32(2), dev.asarray(x), y)
    dev.build_kernel_from_string(DIVMOD, "quot")(np.int32(2), z)
    t = np.arange(12)
    want = np.concatenate([x[e * 12 + (t % 4) * 3 + t // 4] + t for e in range(2)])
    np.testing.assert_array_equal(y.get(), want)
    np.testing.assert_array_equal(z.get(), np.tile(np.arange(10) // 4, 2))


def test_divmod_nest_with_a_loop_keeps_the_width():
    """A nest left to gcc (its body has a loop: no unroll pragma) keeps gcc's own vector
    width: no attribute."""
    src = DIVMOD.replace("y[e * 12 + t] = x[e * 12 + (t % 4) * 3 + t / 4] + t;",
                         "double s = t; for (int m = 0; m < 2; ++m) s += x[e * 12 + "
                         "(t % 4) * 3 + t / 4]; y[e * 12 + t] = s;")
    c = okl.translate(src, "serial", line_directives=False).source
    assert "t__hi" in c and "GCC unroll 3" not in c
    assert "_okl_narrow_vectors" not in c


def _divmod(loop: str) -> str:
    from pycparser import c_generator, c_parser

    from okl.transforms.cpu.divmod import split_divmod_lanes
    ast = c_parser.CParser().parse(
        "void f(int *y, int n) {\n#pragma GCC ivdep\n" + loop + "\n}")
    split_divmod_lanes(ast)
    return c_generator.CGenerator().visit(ast)


@pytest.mark.parametrize("loop", [
    "for (int t = 0; t < 10; ++t) y[t] = t / 4;",             # 4 does not divide 10
    "for (int t = 2; t < 10; ++t) y[t] = t / 4;",             # nor the first value
    "for (int t = -4; t < 8; ++t) y[t + 4] = t / 4;",         # negative t: -1 / 4 == 0
    "for (unsigned t = 0; t < 8; ++t) y[t] = t / 4;",         # not a plain int
    "for (long t = 0; t < 8; ++t) y[t] = t / 4;",
    "for (int t = 0; t < 8; ++t) { y[t] = t / 4; t += 0; }",  # t written in the body
    "for (int t = 0; t < 8; ++t) { int *p = &t; y[*p] = t / 4; }",
    "for (int t = 0; t < 8; ++t) { y[t] = t % 4; { int t = 1; y[t] = t / 4; } }",
    "for (int t = 0; t < 8; ++t) { y[t] = t / 4; if (y[t] > n) break; }",
    "for (int t = 0; t < 8; ++t) y[t] = t / 4u;",             # unsigned result
    "for (int t = 0; t < 8; ++t) y[t] = t / 4L;",
    "for (int t = 0; t < 8; ++t) y[t] = t / 2 + t % 4;",      # two divisors
    "for (int t = 0; t < 8; ++t) y[t] = t / n;",              # not a constant
    "for (int t = 0; t < 8; ++t) y[t] = (t + 1) / 4;",        # not t itself
    "for (int t = 0; t < n; ++t) y[t] = t / 4;",              # run-time trip count
    "for (int t = 0; t < 8; ++t) { const int l = t / 4; y[t] = 0; }",  # only a dead use
    "for (int t = 0; t < 128; ++t) y[t] = t / 4;",            # over 64 lanes
    "for (int t = 0; t < 64; ++t) y[t] = t / 2" + " + y[t + 1]" * 200 + ";",  # 32 big copies
])
def test_divmod_lanes_refused(loop):
    assert "__hi" not in _divmod(loop)


def test_divmod_lanes_accepted():
    out = _divmod("for (int t = 4; t <= 11; t++) { y[t] = t % 4 - t / 4; "
                  "for (;;) break; }")
    # a body with a loop of its own: the nest without `#pragma GCC unroll`
    assert "#pragma GCC ivdep\n  for (int t__hi = 1; t__hi < 3; ++t__hi)" in out
    assert "unroll" not in out
    assert "#pragma GCC unroll 32\n  for (int t__hi = 0; t__hi < 32; ++t__hi)" in _divmod(
        "for (int t = 0; t < 64; ++t) y[t] = t / 2;")
    assert "y[t] = t__lo - t__hi;" in out
    # a loop okl did not mark for SIMD (the pragma is before another statement): left alone
    assert "__hi" not in _divmod("y[0] = 0; for (int t = 0; t < 8; ++t) y[t] = t / 4;")


GUARDS = """
@kernel void g(const int E, const int n, const int d, const int *f, double *y) {
  for (int e = 0; e < E; ++e; @outer) {
    for (int b = 0; b < 5; ++b; @inner(1)) {
      for (int a = 0; a < 5; ++a; @inner(0)) {
        if (b < 4 && a < 3) y[e * 100 + b * 5 + a] = 1 + a + 10 * b;
      }
    }
    for (int b = 0; b < 5; ++b; @inner(1)) {
      for (int a = 0; a < 5; ++a; @inner(0)) {
        if (b < 2) y[e * 100 + 25 + b * 5 + a] = 2 + a;
      }
    }
    for (int b = 0; b < 5; ++b; @inner(1)) {
      for (int a = 0; a < n; ++a; @inner(0)) {
        if (d / 2 > b) y[e * 100 + 50 + b * 5 + a] = 3;
      }
    }
    for (int b = 0; b < 5; ++b; @inner(1)) {
      for (int a = 0; a < 5; ++a; @inner(0)) {
        if (f[b] > 0) y[e * 100 + 75 + b * 5 + a] = 4;
      }
    }
  }
}
"""


GRID = """
@kernel void g(const int nx, const int ny, const float *u, float *w) {
  for (int by = 0; by < (ny + 3) / 4; ++by; @outer(1)) {
    for (int bx = 0; bx < (nx + 7) / 8; ++bx; @outer(0)) {
      for (int ly = 0; ly < 4; ++ly; @inner(1)) {
        for (int lx = 0; lx < 8; ++lx; @inner(0)) {
          const int x = bx * 8 + lx;
          const int y = by * 4 + ly;
          if (x < nx && y < ny) w[y * nx + x] = 2 * u[y * nx + x] + y;
        }
      }
    }
  }
}
"""


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_guard_terms_and_hoisting(mode):
    """A term of ``&&`` on the iterator becomes the bound; a guard the same in every lane
    goes around the lane loop and becomes the bound of the loop around; around a loop that
    may not run it becomes a factor 0 or 1 of the bound; one that reads memory stays."""
    c = okl.translate(GUARDS, mode).source
    assert "for (int a = 0; a < 3; ++a)" in c and c.count("for (int b = 0; b < 4; ++b)") == 1
    assert "for (int b = 0; b < 2; ++b)" in c
    assert "if (b < 4" not in c and "if (b < 2)" not in c
    assert "a < (d / 2 > b) * n" in c     # a < n may run no iteration: a factor, not hoisted
    assert "if (f[b] > 0) y[" in c        # reads memory
    dev = okl.Device(mode)
    E, f = 3, np.array([1, 0, 1, 0, 1], np.int32)
    for n, d in ((5, 5), (0, 9), (2, 0)):
        y = dev.asarray(np.zeros(E * 100))
        dev.build_kernel_from_string(GUARDS, "g")(np.int32(E), np.int32(n), np.int32(d),
                                                  dev.asarray(f), y)
        want = np.zeros((E, 4, 5, 5))
        b, a = np.meshgrid(np.arange(5), np.arange(5), indexing="ij")
        want[:, 0] = np.where((b < 4) & (a < 3), 1 + a + 10 * b, 0)
        want[:, 1] = np.where(b < 2, 2 + a, 0)
        want[:, 2] = np.where((d // 2 > b) & (a < n), 3, 0)
        want[:, 3] = np.where(f[b] > 0, 4, 0)
        np.testing.assert_array_equal(y.get().reshape(E, 4, 5, 5), want)


def test_guard_on_the_bodys_own_names_becomes_a_factor():
    """A guard the same in every lane that names a declaration of the lane body cannot go
    around the loop; it becomes a factor 0 or 1 of the loop's bound instead."""
    src = ("@kernel void h(int m, double *y) { for (int e = 0; e < 1; ++e; @outer) {"
           " for (int b = 0; b < 5; ++b; @inner(1)) { for (int a = 0; a < 5; ++a; @inner(0)) {"
           "int c = b; if (c < 4) y[b * 5 + a] = 1; } } } }")
    c = okl.translate(src, "serial").source
    assert "for (int b = 0; b < 5; ++b)" in c
    assert "a < (((int) b) < 4) * 5" in c and "if (c < 4)" not in c, c
    dev = okl.Device("serial")
    y = dev.zeros(25, np.float64)
    dev.build_kernel_from_string(src, "h")(np.int32(0), y)
    np.testing.assert_array_equal(y.get().reshape(5, 5), np.where(np.arange(5) < 4, 1, 0)
                                  [:, None] * np.ones((1, 5)))


@pytest.mark.parametrize("body", [
    "if (b < 4) y[b * 5 + a] = 1; else y[0] = 2;",  # else
    "if (a + b < 4) y[b * 5 + a] = 1;",            # the iterator
    "if (m < 4) { y[b * 5 + a] = 1; m += 1; }",    # written in the loop
    "if (m < 4) { int *p = &m; y[b * 5 + a] = *p; }",  # address taken
    "if (m < 4) y[b * 5 + a] = 1; y[0] = 0;",     # not the whole body
])
def test_guard_not_hoisted(body):
    src = ("@kernel void h(int m, double *y) { for (int e = 0; e < 1; ++e; @outer) {"
           " for (int b = 0; b < 5; ++b; @inner(1)) { for (int a = 0; a < 5; ++a; @inner(0)) {"
           + body + " } } } }")
    c = okl.translate(src, "serial").source.replace("if (*_okl_stop)", "")  # Ctrl-C's
    # the guard stays in the lane loop: a's, or the plane's one loop where cpu.collapse made
    # one of its rows of 5 lanes (every use of a and b is b * 5 + a)
    lane = re.search(r"for \(int (a|ba) = 0; (a|ba) < (5|25);", c)
    assert lane is not None and lane.start() < c.index("if ("), c


def test_conjunction_guard_becomes_bound():
    """``if (x < nx && y < ny)``: the term on the loop's own index becomes its bound, the
    term that does not depend on it a factor 0 or 1 of that bound (no iteration or all)."""
    for mode in ("serial", "openmp"):
        c = okl.translate(GRID, mode).source
        # the grid is its row and column loops (cpu.grid): x and y copies of lx and ly
        assert "lx < (((int) ly) < ny) * (((nx + 7) / 8 * 8 < nx) ? ((nx + 7) / 8 * 8) : " \
               "(nx))" in c
        assert "if (x < nx" not in c
        tiles = okl.translate(GRID.replace("w[y * nx + x]", "w[x * ny + y]"), mode).source
        assert "lx < (((int) (by * 4 + ly)) < ny) * ((8 < nx - bx * 8) ? (8) : " \
               "(nx - bx * 8))" in tiles
        assert "if (x < nx" not in tiles


@pytest.mark.parametrize("mode", ["serial", "openmp"])
@pytest.mark.parametrize("nx,ny", [(1, 1), (7, 5), (8, 4), (13, 9), (16, 16)])
def test_conjunction_guard_same_iterations(mode, nx, ny):
    dev = okl.Device(mode)
    k = dev.build_kernel_from_string(GRID, "g")
    u = np.arange(nx * ny, dtype=np.float32)
    # w one row longer than the grid: a store past it would show
    w = dev.asarray(np.full(nx * ny + nx, -1, np.float32))
    k(np.int32(nx), np.int32(ny), dev.asarray(u), w)
    want = np.full(nx * ny + nx, -1, np.float32)
    want[:nx * ny] = 2 * u + np.repeat(np.arange(ny), nx)
    np.testing.assert_array_equal(w.get(), want)


def _guarded(guard: str, pre: str = "", start: str = "0") -> str:
    src = f"""
@kernel void k(const int n, const int m, const float *x, float *y) {{
  for (int b = 0; b < 4; ++b; @outer) {{
    for (int t = {start}; t < 16; ++t; @inner) {{
      const int i = b * 16 + t;
      {pre}
      if ({guard}) y[i] = x[i];
    }}
  }}
}}
"""
    return okl.translate(src, "serial").source


@pytest.mark.parametrize("guard,pre,start", [
    ("i < n && t * t < m", "", "0"),            # a term on t that is not a bound
    ("i < n || m > 0", "", "0"),                # not a conjunction
    ("i < n && m / n > 0", "", "0"),            # a division after the first term
    ("i < n && x[b] > 0", "", "0"),             # not plain arithmetic
    ("i < n && j > 0", "int j = m; j += t;", "0"),  # a term on a name the body writes
    ("i < n && m > 0", "", "-2"),               # a start below 0: 0 x bound would run
    ("i < m && j > 0", "const int j = n; const int n = 2;", "0"),  # j's n is not this n
])
def test_conjunction_guard_refused(guard, pre, start):
    """No factor of the bound: the terms that are not a bound on the index stay a guard
    inside the loop (where the bound term is one, it alone becomes the bound)."""
    c = _guarded(guard, pre, start)
    rest = guard.split(" && ", 1)[-1]
    assert f"if ({guard})" in c or f"if ({rest})" in c, c


def test_conjunction_guard_refused_address_taken():
    """A term's variable written through a pointer in the guarded code: not invariant."""
    src = """
@kernel void k(const int n, const int m, const float *x, float *y) {
  for (int b = 0; b < 4; ++b; @outer) {
    int lim = m;
    for (int t = 0; t < 16; ++t; @inner) {
      const int i = b * 16 + t;
      if (i < n && lim > 0) { int *q = &lim; *q = 0; y[i] = x[i]; }
    }
  }
}
"""
    c = okl.translate(src, "serial").source
    assert "if (i < n && lim > 0)" in c or "if (lim > 0)" in c, c


def test_conjunction_guard_accepted():
    c = _guarded("m / 2 > 0 && i < n && m < 100", start="1")
    assert "t < (m / 2 > 0 && m < 100) * ((16 < n - b * 16) ? (16) : (n - b * 16))" \
        in c, c


TWO = """
@kernel void two(const int n, const float *x, float *y, float *z) {
  for (int b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 32; ++t; @inner) {
      y[b * 32 + t] = 2.0f * x[b * 32 + t];
    }
  }
  for (int b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 32; ++t; @inner) {
      z[b * 32 + t] = y[b * 32 + t] + y[((b + 1) % n) * 32 + t];
    }
  }
  for (int b = -1; b < n - 1; ++b; @outer) {
    for (int t = 0; t < 32; ++t; @inner) {
      z[(b + 1) * 32 + t] += 1.0f;
    }
  }
}
"""


def test_outer_loops_share_a_region():
    """Parallel @outer loops in a row: one ``omp parallel`` region, ``omp for`` on each (its
    barrier orders them); a loop with a guard before it (a possibly negative start) stays a
    region of its own."""
    c = okl.translate(TWO, "openmp").source
    # the region wakes the team when the loops have a second iteration
    assert c.count("#pragma omp parallel if(parallel: 1 < n)\n") == 1
    assert c.count("#pragma omp for\n") == 2
    assert c.count("#pragma omp parallel for") == 1
    assert "omp parallel" not in okl.translate(TWO, "serial").source
    dev = okl.Device("openmp")
    n = 37
    x = np.arange(n * 32, dtype=np.float32)
    y, z = dev.zeros(n * 32, np.float32), dev.zeros(n * 32, np.float32)
    for _ in range(20):  # the second loop reads what other threads' blocks wrote
        dev.build_kernel_from_string(TWO, "two")(np.int32(n), dev.asarray(x), y, z)
        np.testing.assert_array_equal(z.get(), 2 * x + 2 * np.roll(x, -32) + 1)



def test_outer_loops_after_a_declaration_share_a_region():
    """A statement before the loops (the reduction's ``const int nblocks``) does not keep
    them apart: one region, as without it (each was a region of its own, two team wake-ups
    per launch)."""
    src = TWO.replace("float *z) {\n", "float *z) {\n  const int m = n;\n", 1) \
        .replace("b < n; ++b; @outer) {\n    for (int t = 0; t < 32; ++t; @inner) {\n"
                 "      z[b * 32", "b < m; ++b; @outer) {\n    for (int t = 0; t < 32; ++t; "
                 "@inner) {\n      z[b * 32", 1)
    assert "const int m = n;" in src and "b < m;" in src
    c = okl.translate(src, "openmp").source
    assert c.count("#pragma omp parallel if(parallel: (1 < n) || (1 < m))\n") == 1
    assert c.count("#pragma omp for\n") == 2
    dev = okl.Device("openmp")
    n = 37
    x = np.arange(n * 32, dtype=np.float32)
    y, z = dev.zeros(n * 32, np.float32), dev.zeros(n * 32, np.float32)
    for _ in range(20):
        dev.build_kernel_from_string(src, "two")(np.int32(n), dev.asarray(x), y, z)
        np.testing.assert_array_equal(z.get(), 2 * x + 2 * np.roll(x, -32) + 1)

ONE_PASS = """
@kernel void blocks(const int n, const float *x, float *partial, float *total) {
  for (int b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 1; ++t; @inner) {
      float s = 0;
      for (int k = 0; k < 32; ++k) s += x[b * 32 + k];
      partial[b] = s;
    }
  }
  for (int o = 0; o < 1; ++o; @outer) {
    for (int t = 0; t < 1; ++t; @inner) {
      float s = 0;
      for (int b = 0; b < n; ++b) s += partial[b];
      total[0] = s;
    }
  }
}
"""


def test_one_iteration_outer_loop_runs_after_the_region():
    """A last pass of one iteration over the blocks' partial sums runs on the launching
    thread after the parallel loop's region (as the hand C sums its partials), not as an
    ``omp for`` that the other threads wait at; a one-iteration @outer loop with @outer
    loops inside stays parallel (collapse)."""
    c = okl.translate(ONE_PASS, "openmp").source
    assert c.count("#pragma omp parallel for") == 1
    assert "#pragma omp for" not in c and not re.search(r"#pragma omp parallel\b(?! for)", c)
    second = c.index("for (int o = 0; o < 1; ++o)")
    assert "break;" in c[second:]  # the launch's Ctrl-C check of a sequential loop
    dev = okl.Device("openmp")
    x = np.random.default_rng(5).random(37 * 32, dtype=np.float32)
    partial, total = dev.zeros(37, np.float32), dev.zeros(1, np.float32)
    dev.build_kernel_from_string(ONE_PASS, "blocks")(np.int32(37), dev.asarray(x), partial,
                                                     total)
    want = x.reshape(37, 32).sum(axis=1, dtype=np.float32)
    np.testing.assert_allclose(partial.get(), want, rtol=1e-6)
    np.testing.assert_allclose(total.get()[0], want.sum(), rtol=1e-5)
    nested = ONE_PASS.replace(
        "for (int o = 0; o < 1; ++o; @outer) {\n    for (int t = 0; t < 1; ++t; @inner) {",
        "for (int o = 0; o < 1; ++o; @outer(1)) {\n  for (int p = 0; p < 4; ++p; @outer(0)) {"
        "\n    for (int t = 0; t < 1; ++t; @inner) {", 1).replace(
        "      total[0] = s;\n    }\n  }\n", "      total[p] = s;\n    }\n  }\n  }\n", 1)
    assert "@outer(0)" in nested and "total[p]" in nested
    assert "#pragma omp for collapse(2)" in okl.translate(nested, "openmp").source


def test_loop_shapes_the_cpu_passes_share():
    """cpu_loops: which loops count a constant range, and which bodies leave their loop."""
    from pycparser import c_parser

    from okl.transforms.cpu.loops import counted_loop, leaves

    def loop(text):
        fn = c_parser.CParser().parse(f"void f(int n) {{ {text} }}").ext[0]
        return fn.body.block_items[0]

    assert counted_loop(loop("for (int t = 2; t < 10; ++t) ;")) == ("t", 2, 8)
    assert counted_loop(loop("for (int t = 0; t <= 4; t += 1) ;")) == ("t", 0, 5)
    assert counted_loop(loop("for (int t = 5; t < 5; t++) ;")) == ("t", 5, 0)
    assert counted_loop(loop("for (int t = 0; t < n; ++t) ;")) is None
    assert counted_loop(loop("for (int t = 0; t < 8; t += 2) ;")) is None
    body = loop("for (;;) { switch (n) { case 1: break; } for (;;) { continue; } }").stmt
    assert not leaves(body, continues=True)
    assert leaves(loop("for (;;) { switch (n) { case 1: continue; } }").stmt, continues=True)
    assert not leaves(loop("for (;;) { switch (n) { case 1: continue; } }").stmt,
                      continues=False)
    assert leaves(loop("for (;;) { if (n) break; }").stmt, continues=False)


TILES = """
@kernel void plain(const int n, const float *x, float *y) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {
    y[i] = 2 * x[i];
  }
}
@kernel void histogram(const int n, const int *x, int *h) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {
    @atomic h[x[i]] += 1;
  }
}
@kernel void whole(const int n, float *y) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner, check=false)) {
    y[i] = 1;
  }
}
@kernel void staged(const int n, const float *x, float *y) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {
    y[i] = x[i];
  }
  for (int b = 0; b < (n + 15) / 16; ++b; @outer) {
    @shared float s[16];
    for (int t = 0; t < 16; ++t; @inner) {
      s[t] = b;
    }
    for (int t = 0; t < 16; ++t; @inner) {
      if (b * 16 + t < n) y[b * 16 + t] += s[15 - t];
    }
  }
}
"""


def _function(source: str, name: str) -> str:
    start = source.index(f"static void {name}(")
    return source[start:source.index("\n}\n", start)]


def test_untiled_tile_loops():
    """A @tile loop with nothing else in its tiles is the user's loop again on CPUs (one
    memcpy for a copy instead of one per tile); its lanes stay SIMD lanes, unless @atomic."""
    serial = okl.translate(TILES, "serial", line_directives=False).source
    openmp = okl.translate(TILES, "openmp", line_directives=False).source
    for c, mark in ((serial, "#pragma GCC ivdep"),
                    (openmp, "#pragma omp parallel for simd if(parallel: 1 < n)")):
        plain = _function(c, "plain")
        assert "_okl_tiled_" not in plain
        assert f"{mark}\n  for (int i = 0; i < n; ++i) {{\n    y[i] = 2 * x[i];" in plain
        histogram = _function(c, "histogram")
        assert "_okl_tiled_" not in histogram and "ivdep" not in histogram and \
            "simd" not in histogram
        # check=false runs whole tiles past n: the tiles stay
        assert "_okl_tiled_" in _function(c, "whole")
        staged = _function(c, "staged")
        assert staged.count("_okl_tiled_") == 0 and "for (int i = 0; i < n; ++i)" in staged
    assert "#pragma omp parallel if(" in _function(openmp, "staged")  # one region still


@pytest.mark.parametrize("mode", ["serial", "openmp"])
@pytest.mark.parametrize("n", [0, 1, 15, 16, 17, 1000])
def test_untiled_same_answer(mode, n):
    dev = okl.Device(mode)
    x = np.arange(n, dtype=np.float32)
    y = np.zeros(n, np.float32)
    dev.build_kernel_from_string(TILES, "staged")(n, x, y)
    b = np.arange(n) // 16
    np.testing.assert_array_equal(y, x + b.astype(np.float32))
    h = np.zeros(4, np.int32)
    idx = (np.arange(n) % 3).astype(np.int32)
    dev.build_kernel_from_string(TILES, "histogram")(n, idx, h)
    np.testing.assert_array_equal(h, np.bincount(idx, minlength=4))


SCATTER = """
@kernel void scatter(const int n, const int *idx, const int *col, const float *f, float *r) {
  for (int b = 0; b < (n + 63) / 64; ++b; @outer) {
    for (int t = 0; t < 64; ++t; @inner) {
      const int e = b * 64 + t;
      if (e < n) r[e] = 2 * f[e];
    }
    for (int c = 0; c < 3; ++c) {
      for (int t = 0; t < 64; ++t; @inner) {
        const int e = b * 64 + t;
        if (e < n && col[e] == c) {
          const int to = idx[e];
          r[n + to] += f[e];
        }
      }
    }
  }
}
"""


def test_no_simd_mark_on_scatter_loops():
    """An @inner loop that stores through an index it loaded stays scalar (masked scatters
    cost what the scalar loop costs per element); a direct store keeps the mark."""
    from pycparser import c_ast

    from okl.transforms.cpu.simd import scatters
    for mode in ("serial", "openmp"):
        c = okl.translate(SCATTER, mode, line_directives=False).source
        assert c.count("#pragma GCC ivdep") == 1
        assert c.index("#pragma GCC ivdep") < c.index("r[e] = 2 * f[e]") < c.index("idx[e]")
    body = c_ast.Compound([c_ast.Assignment("=", c_ast.ArrayRef(
        c_ast.ID("r"), c_ast.ArrayRef(c_ast.ID("idx"), c_ast.ID("t"))), c_ast.ID("v"))])
    assert scatters(c_ast.For(None, None, None, body))
    through = c_ast.Compound([
        c_ast.Decl("k", [], [], [], [], c_ast.TypeDecl("k", [], None,
                                                       c_ast.IdentifierType(["int"])),
                   c_ast.BinaryOp("+", c_ast.ArrayRef(c_ast.ID("idx"), c_ast.ID("t")),
                                  c_ast.Constant("int", "1")), None),
        c_ast.Assignment("+=", c_ast.UnaryOp("*", c_ast.BinaryOp("+", c_ast.ID("p"),
                                                                c_ast.ID("k"))),
                         c_ast.ID("v"))])
    assert scatters(c_ast.For(None, None, None, through))
    direct = c_ast.Compound([c_ast.Assignment("=", c_ast.ArrayRef(
        c_ast.ID("r"), c_ast.BinaryOp("+", c_ast.ID("t"), c_ast.ID("n"))),
        c_ast.ArrayRef(c_ast.ID("idx"), c_ast.ID("t")))])
    assert not scatters(c_ast.For(None, None, None, direct))


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_scatter_loop_same_answer(mode):
    n = 200
    rng = np.random.default_rng(5)
    idx = rng.permutation(n).astype(np.int32)
    col = (np.arange(n) % 3).astype(np.int32)
    f = rng.random(n).astype(np.float32)
    r = np.zeros(2 * n, np.float32)
    okl.Device(mode).build_kernel_from_string(SCATTER, "scatter")(n, idx, col, f, r)
    expected = np.zeros(2 * n, np.float32)
    expected[:n] = 2 * f
    expected[n + idx] = f
    np.testing.assert_array_equal(r, expected)
